import autocannon from 'autocannon';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: string;
  seconds: number;
  connections?: number;
}

/** Drives one endpoint with autocannon after a short warm-up, and returns throughput and latency. */
export async function load(opts: LoadOptions): Promise<LoadResult> {
  const run = (duration: number) =>
    autocannon({
      url: opts.url,
      method: opts.method ?? 'GET',
      headers: opts.headers,
      body: opts.body,
      duration,
      connections: opts.connections ?? 10,
      pipelining: 1,
    });
  await run(1);
  const r = await run(opts.seconds);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}
