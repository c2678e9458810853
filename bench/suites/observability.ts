import { compare, cpuPerRequest, type LoadOptions } from '../lib/load.ts';
import { type Child, startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';

interface Seeded {
  url: string;
  apiKey: string;
  userId: string;
}

const METRICS_TOKEN = 'bench-metrics-token-0123456789';

/** `GET /workflows` as the seeded user, with a JWT the service minted. */
async function workflowsLoad(svc: Child<Seeded>, seconds: number): Promise<LoadOptions> {
  const tokenRes = await fetch(`${svc.info.url}/users/${svc.info.userId}/token`, {
    headers: { authorization: `Bearer ${svc.info.apiKey}` },
  });
  const { token } = (await tokenRes.json()) as { token: string };
  return {
    url: `${svc.info.url}/workflows`,
    headers: { authorization: `Bearer ${token}` },
    seconds,
    pid: svc.proc.pid,
  };
}

/**
 * What observability costs the API: `GET /workflows` throughput with traces exported to a local OTLP receiver
 * against the same service without them, and with Prometheus scraping `/metrics` every second against no scrape.
 */
export async function observability(opts: { quick: boolean }): Promise<Measurement[]> {
  const suite = 'observability (pglite)';
  const seconds = opts.quick ? 2 : 5;
  const rounds = opts.quick ? 2 : 4;
  const sink = await startChild<{ url: string }>('servers/otlp-sink.ts');
  const base = { INLAY_DATA_DIR: 'memory://', INLAY_METRICS_TOKEN: METRICS_TOKEN };
  const off = await startChild<Seeded>('servers/service.ts', [], base);
  const otel = { ...base, OTEL_EXPORTER_OTLP_ENDPOINT: sink.info.url, OTEL_SERVICE_NAME: 'inlay-bench' };
  const on = await startChild<Seeded>('servers/service.ts', [], otel);
  const sampledOff = await startChild<Seeded>('servers/service.ts', [], {
    ...otel,
    OTEL_TRACES_SAMPLER: 'always_off',
  });
  let scraper: NodeJS.Timeout | undefined;
  try {
    const plain = await workflowsLoad(off, seconds);
    const traced = await workflowsLoad(on, seconds);
    const t = await compare(traced, plain, rounds);
    const n = await compare(await workflowsLoad(sampledOff, seconds), plain, rounds);
    // The same service, with and without a scrape every second (what a 1 s scrape_interval costs).
    let scrapes = 0;
    let scrapeMs = 0;
    const scrape = async () => {
      const t0 = performance.now();
      const r = await fetch(`${off.info.url}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      await r.text();
      scrapeMs += performance.now() - t0;
      scrapes++;
    };
    const scraped = { ...plain };
    const m = await compare(
      {
        ...scraped,
        // Scraping runs only during the subject's loads: started before and stopped after each.
        get url() {
          clearInterval(scraper);
          scraper = setInterval(() => void scrape().catch(() => {}), 1000);
          return plain.url;
        },
      } as LoadOptions,
      {
        ...plain,
        get url() {
          clearInterval(scraper);
          return plain.url;
        },
      } as LoadOptions,
      rounds,
    );
    clearInterval(scraper);
    return [
      {
        suite,
        name: 'GET /workflows req/s, tracing on (OTLP to a local receiver)',
        value: t.subject.rps,
        unit: 'req/s',
        baseline: t.baseline.rps,
        ratio: t.ratio,
        target: { on: 'ratio', op: '>=', value: 0.9, label: '≥ 90 % of tracing off' },
        note: `${rounds} alternating rounds of ${seconds} s; baseline: no OTEL_* variable (the SDK is not loaded)`,
      },
      ...cpuPerRequest(suite, 'GET /workflows CPU per request, tracing on', t.subject, t.baseline),
      {
        suite,
        name: 'GET /workflows req/s, OTEL_TRACES_SAMPLER=always_off',
        value: n.subject.rps,
        unit: 'req/s',
        baseline: n.baseline.rps,
        ratio: n.ratio,
        target: { on: 'ratio', op: '>=', value: 0.95, label: '≈ tracing off (≥ 95 %)' },
        note: 'an endpoint set but a sampler that records nothing: the SDK is not loaded',
      },
      {
        suite,
        name: 'GET /workflows req/s, /metrics scraped every second',
        value: m.subject.rps,
        unit: 'req/s',
        baseline: m.baseline.rps,
        ratio: m.ratio,
        target: { on: 'ratio', op: '>=', value: 0.98, label: '≥ 98 % of no scrape' },
        note: `${scrapes} scrapes during the subject's loads, ${(scrapeMs / Math.max(1, scrapes)).toFixed(1)} ms each`,
      },
    ];
  } finally {
    clearInterval(scraper);
    await Promise.all([on.stop(), sampledOff.stop(), off.stop(), sink.stop()]);
  }
}
