import { describe, expect, it } from 'vitest';
import { tracingWanted } from '../../src/tracing/tracing.ts';

const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('tracingWanted', () => {
  it('is off without an endpoint or an exporter named', () => {
    expect(tracingWanted({})).toBe(false);
    expect(tracingWanted({ OTEL_SERVICE_NAME: 'inlay', OTEL_TRACES_SAMPLER: 'always_on' })).toBe(false);
  });

  it('is on for an endpoint, a traces endpoint or an exporter', () => {
    expect(tracingWanted(endpoint)).toBe(true);
    expect(tracingWanted({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://127.0.0.1:4318/v1/traces' })).toBe(
      true,
    );
    expect(tracingWanted({ OTEL_TRACES_EXPORTER: 'otlp' })).toBe(true);
  });

  it('is off when the SDK is disabled or the exporter is none', () => {
    expect(tracingWanted({ ...endpoint, OTEL_SDK_DISABLED: 'true' })).toBe(false);
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_EXPORTER: 'none' })).toBe(false);
  });

  it('is off for a sampler that records nothing, on for one that may', () => {
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_SAMPLER: 'always_off' })).toBe(false);
    expect(
      tracingWanted({ ...endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' }),
    ).toBe(false);
    expect(
      tracingWanted({ ...endpoint, OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' }),
    ).toBe(true);
    // A sampled caller's trace is still followed.
    expect(tracingWanted({ ...endpoint, OTEL_TRACES_SAMPLER: 'parentbased_always_off' })).toBe(true);
    expect(
      tracingWanted({
        ...endpoint,
        OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
        OTEL_TRACES_SAMPLER_ARG: '0',
      }),
    ).toBe(true);
  });
});
