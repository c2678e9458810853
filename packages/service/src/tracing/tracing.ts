import {
  type Attributes,
  type Context,
  context,
  type Link,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import type { Logger } from 'pino';

/** The variables that ask for traces: an OTLP endpoint, or an exporter named (other than `none`). */
const WANTED = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_EXPORTER'];

/**
 * Whether the standard OpenTelemetry variables turn tracing on. A sampler that records nothing (`always_off`, or
 * `traceidratio` at 0) counts as off: no span could ever be exported, so the SDK and its context manager are not
 * loaded and the service runs the code it runs without any variable.
 */
export function tracingWanted(env: Record<string, string | undefined>): boolean {
  if (env.OTEL_SDK_DISABLED === 'true' || env.OTEL_TRACES_EXPORTER === 'none') return false;
  const sampler = env.OTEL_TRACES_SAMPLER?.trim().toLowerCase();
  if (sampler === 'always_off') return false;
  if (sampler === 'traceidratio' && Number(env.OTEL_TRACES_SAMPLER_ARG) === 0) return false;
  return WANTED.some((name) => Boolean(env[name]));
}

/** True once this process exports traces: every span site checks it first, so off costs one boolean test. */
export let tracing = false;

const TRACER = 'inlay';
export const tracer = () => trace.getTracer(TRACER);

interface Started {
  users: number;
  stop: () => Promise<void>;
}
let started: Promise<Started | undefined> | undefined;

/**
 * Starts the OpenTelemetry SDK for this process when the standard variables ask for it: `OTEL_EXPORTER_OTLP_*`
 * (endpoint, protocol `http/protobuf` or `http/json`, headers), `OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`,
 * `OTEL_TRACES_SAMPLER` and the rest. The SDK is imported only then, so a service without them loads none of it.
 * Returns the stop of this app's use (the SDK shuts down with its last user), or undefined when off.
 */
export async function startTracing(
  env: Record<string, string | undefined>,
  logger: Logger,
): Promise<(() => Promise<void>) | undefined> {
  if (!tracingWanted(env)) return undefined;
  started ??= sdk(env, logger);
  const s = await started;
  if (!s) return undefined;
  s.users++;
  return async () => {
    if (--s.users > 0) return;
    started = undefined;
    tracing = false;
    await s.stop();
  };
}

async function sdk(env: Record<string, string | undefined>, logger: Logger): Promise<Started | undefined> {
  // The SDK reads its settings from process.env; the service's own environment may have been handed in.
  const lent: string[] = [];
  for (const [k, v] of Object.entries(env))
    if (k.startsWith('OTEL_') && v !== undefined && process.env[k] === undefined) {
      process.env[k] = v;
      lent.push(k);
    }
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ?? env.OTEL_EXPORTER_OTLP_PROTOCOL ?? 'http/protobuf';
  if (protocol !== 'http/protobuf' && protocol !== 'http/json') {
    logger.warn(
      { protocol },
      'OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json: tracing is off',
    );
    return undefined;
  }
  const [node, base, resources] = await Promise.all([
    import('@opentelemetry/sdk-trace-node'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/resources'),
  ]);
  const { OTLPTraceExporter } =
    protocol === 'http/json'
      ? await import('@opentelemetry/exporter-trace-otlp-http')
      : await import('@opentelemetry/exporter-trace-otlp-proto');
  const resource = resources
    .resourceFromAttributes({ 'service.name': 'inlay' })
    .merge(resources.detectResources({ detectors: [resources.envDetector] }));
  const provider = new node.NodeTracerProvider({
    resource,
    spanProcessors: [new base.BatchSpanProcessor(new OTLPTraceExporter())],
  });
  provider.register();
  tracing = true;
  logger.info({ protocol }, 'tracing on: spans go to the OTLP endpoint');
  return {
    users: 0,
    stop: async () => {
      await provider.shutdown().catch(() => {});
      trace.disable();
      context.disable();
      propagation.disable();
      for (const k of lent) delete process.env[k];
    },
  };
}

/** The active span's ids, for log lines (pino's mixin); nothing outside a span or with tracing off. */
export function traceIds(): { trace_id?: string; span_id?: string } {
  if (!tracing) return {};
  const span = trace.getActiveSpan();
  if (!span) return {};
  const c = span.spanContext();
  return { trace_id: c.traceId, span_id: c.spanId };
}

/** Runs `fn` in a new span (a child of the active one unless `parent` is given), ended when it settles. */
export async function inSpan<T>(
  name: string,
  opts: { kind?: SpanKind; attributes?: Attributes; links?: Link[]; parent?: Context; root?: boolean },
  fn: (span: Span) => Promise<T>,
): Promise<T> {
  const parent = opts.parent ?? context.active();
  const span = tracer().startSpan(
    name,
    { kind: opts.kind ?? SpanKind.INTERNAL, attributes: opts.attributes, links: opts.links, root: opts.root },
    parent,
  );
  try {
    return await context.with(trace.setSpan(parent, span), () => fn(span));
  } catch (err) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).name });
    throw err;
  } finally {
    span.end();
  }
}

/** The active context as `traceparent`/`tracestate` headers, to carry through a queue; undefined when off. */
export function carrier(): Record<string, string> | undefined {
  if (!tracing) return undefined;
  const out: Record<string, string> = {};
  propagation.inject(context.active(), out);
  return out.traceparent ? out : undefined;
}

/** The context a carrier names (the root context for none). */
export const contextOf = (c: Record<string, string> | undefined): Context =>
  c ? propagation.extract(ROOT_CONTEXT, c) : ROOT_CONTEXT;

export type { Span };
export { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace };
