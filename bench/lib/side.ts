import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import type pg from 'pg';
import { echoReshapeSteps } from './echo.ts';
import type { Child } from './proc.ts';

/** One system of the n8n comparison, serving the same workflow behind a webhook. */
export interface Side {
  name: string;
  /** The process whose tree's RSS is sampled. */
  pid: number;
  /** Fires `n` webhook calls, `concurrency` at a time; returns finished executions per second. */
  throughput(n: number, concurrency: number): Promise<number>;
  /** One call on an idle system: ms from sending the webhook to the execution's end. */
  once(i: number): Promise<number>;
  stop(): Promise<void>;
}

export const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))] ?? Number.NaN;
};

/** The wall clock in ms with sub-ms resolution, comparable with PostgreSQL's timestamps on the same machine. */
export const wallMs = () => performance.timeOrigin + performance.now();

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`POST ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Runs `n` calls of `call(i)`, `concurrency` at a time. */
export async function pool(n: number, concurrency: number, call: (i: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) await call(next++);
    }),
  );
}

/** Resident memory (KiB) of a process and its descendants, from /proc. */
function treeRss(root: number): number {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {}
  }
  let kib = 0;
  for (const pid of parent.keys()) {
    let p: number | undefined = pid;
    while (p && p !== root) p = parent.get(p);
    if (p !== root) continue;
    try {
      kib += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
    } catch {}
  }
  return kib;
}

/** Samples a process tree's RSS every 250 ms; `stop()` returns the peak in KiB. */
export function sampleRss(pid: number) {
  let peak = treeRss(pid);
  const timer = setInterval(() => {
    peak = Math.max(peak, treeRss(pid));
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeRss(pid));
    },
  };
}

async function queryRetried<T extends pg.QueryResultRow>(db: pg.Pool, text: string, values: unknown[]) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.query<T>(text, values);
    } catch (err) {
      if (attempt >= 5) throw err;
      await new Promise((ok) => setTimeout(ok, 200));
    }
  }
}

/** Inlay's side: the webhook workflow event → `http` POST to the echo server → `transform`, installed. */
export async function startInlay(
  service: Child<{ url: string; apiKey: string }>,
  db: pg.Pool,
  echoUrl: string,
): Promise<Side & { webhookUrl: string }> {
  const { url, apiKey } = service.info;
  const auth = { authorization: `Bearer ${apiKey}` };
  const { integrationId } = await postJson(`${url}/integrations`, { name: 'n8n comparison' }, auth);
  const { workflowId } = await postJson(
    `${url}/workflows`,
    {
      integrationId,
      name: 'Webhook, echo, reshape',
      definition: {
        trigger: { type: 'webhook' },
        steps: echoReshapeSteps(echoUrl),
        config: [],
      },
    },
    auth,
  );
  const { userId } = await postJson(`${url}/users`, { username: `n8n-${randomUUID().slice(0, 8)}` }, auth);
  const installed = (await postJson(
    `${url}/installations`,
    { userId, workflowIds: [workflowId], credentialIds: {}, values: [] },
    auth,
  )) as { data: { webhookUrl: string } };
  // The bench service has no public URL of its own: the path, on the address it listens on.
  const webhookUrl = `${url}${new URL(installed.data.webhookUrl).pathname}`;

  /** Waits until every execution stopped; fails on one that did not succeed. Returns the last end (ms). */
  async function finished(ids: string[]): Promise<number> {
    const until = Date.now() + 600_000;
    for (;;) {
      const { rows } = await queryRetried<{ done: number; failed: number; last: Date | null }>(
        db,
        `select count(*) filter (where stopped_at is not null)::int as done,
                count(*) filter (where status <> 'succeeded' and stopped_at is not null)::int as failed,
                extract(epoch from max(stopped_at)) * 1000 as last
         from executions where id = any($1::uuid[])`,
        [ids],
      );
      const r = rows[0]!;
      if (r.failed) throw new Error(`Inlay: ${r.failed} executions did not succeed`);
      if (r.done === ids.length) return Number(r.last);
      if (Date.now() > until) throw new Error(`Inlay: ${r.done} of ${ids.length} executions finished`);
      await new Promise((ok) => setTimeout(ok, 5));
    }
  }
  const call = async (n: number) =>
    ((await postJson(webhookUrl, { n })) as { executionIds: string[] }).executionIds;

  return {
    name: 'Inlay',
    webhookUrl,
    pid: service.proc.pid!,
    async throughput(n, c) {
      const ids: string[] = [];
      const t0 = wallMs();
      await pool(n, c, async (i) => ids.push(...(await call(i))));
      return n / (((await finished(ids)) - t0) / 1000);
    },
    async once(i) {
      const t0 = wallMs();
      return (await finished(await call(i))) - t0;
    },
    stop: () => service.stop(),
  };
}
