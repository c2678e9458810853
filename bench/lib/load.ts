import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import type { Measurement } from './report.ts';

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  requests: number;
  errors: number;
  non2xx: number;
  /** CPU time the server process spent per request (ms), when its pid is known (Linux). */
  cpuMs?: number;
}

export interface LoadOptions {
  url: string;
  headers?: Record<string, string>;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: string;
  seconds: number;
  connections?: number;
  /** The server's pid: its CPU time per request is reported, a figure that load on the machine barely moves. */
  pid?: number;
  warmup?: boolean;
}

/** utime + stime of a process in ms, from /proc (undefined elsewhere). */
export function cpuTimeMs(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 and 15 of stat(5), counted from the state field (3): clock ticks, 100 per second on Linux.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return undefined;
  }
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
  if (opts.warmup !== false) await run(1);
  const cpu0 = cpuTimeMs(opts.pid);
  const r = await run(opts.seconds);
  const cpu1 = cpuTimeMs(opts.pid);
  return {
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
    cpuMs:
      cpu0 === undefined || cpu1 === undefined || !r.requests.total
        ? undefined
        : (cpu1 - cpu0) / r.requests.total,
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * Measures a subject and its baseline in alternating rounds and keeps the median of each, so a burst of
 * other work on the machine lands on both sides rather than on one. Which side goes first alternates too (ABBA),
 * so whatever the first of two back-to-back loads pays (a GC the previous one left, autovacuum starting) is not
 * always paid by the subject. `ratio` is the median of each round's subject-to-baseline throughput: two loads a
 * few seconds apart share the machine's state, so a slow drift across rounds cancels within each pair.
 */
export async function compare(
  subject: LoadOptions,
  baseline: LoadOptions,
  rounds: number,
): Promise<{ subject: LoadResult; baseline: LoadResult; ratio: number }> {
  const a: LoadResult[] = [];
  const b: LoadResult[] = [];
  for (let i = 0; i < rounds; i++) {
    const warmup = i === 0;
    if (i % 2 === 0) {
      a.push(await load({ ...subject, warmup }));
      b.push(await load({ ...baseline, warmup }));
    } else {
      b.push(await load({ ...baseline, warmup }));
      a.push(await load({ ...subject, warmup }));
    }
  }
  const pick = (rs: LoadResult[]): LoadResult => ({
    rps: Math.round(median(rs.map((r) => r.rps))),
    p50: median(rs.map((r) => r.p50)),
    p99: median(rs.map((r) => r.p99)),
    requests: rs.reduce((s, r) => s + r.requests, 0),
    errors: rs.reduce((s, r) => s + r.errors, 0),
    non2xx: rs.reduce((s, r) => s + r.non2xx, 0),
    cpuMs: rs.every((r) => r.cpuMs !== undefined) ? median(rs.map((r) => r.cpuMs!)) : undefined,
  });
  const ratio = median(a.map((r, i) => (b[i]!.rps ? r.rps / b[i]!.rps : 0)));
  return { subject: pick(a), baseline: pick(b), ratio };
}

/**
 * The service's CPU per request beside its baseline's, as a measurement (none when either pid was unknown): the
 * figure a busy machine moves least.
 */
export function cpuPerRequest(
  suite: string,
  name: string,
  subject: LoadResult,
  baseline: LoadResult,
  note = 'steadier than req/s on a busy machine',
): Measurement[] {
  if (subject.cpuMs === undefined || baseline.cpuMs === undefined) return [];
  return [
    {
      suite,
      name,
      value: subject.cpuMs,
      unit: 'ms',
      baseline: baseline.cpuMs,
      ratio: baseline.cpuMs ? subject.cpuMs / baseline.cpuMs : undefined,
      note,
    },
  ];
}
