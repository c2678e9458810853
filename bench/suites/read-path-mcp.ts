import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, cpuPerRequest } from '../lib/load.ts';
import { startChild } from '../lib/proc.ts';
import type { Measurement } from '../lib/report.ts';

/** A fresh MCP server of the bench account, and the two requests the bench sends it (`pnpm bench:profile` too). */
export async function mcpTarget(url: string, apiKey: string, userId: string) {
  const created = await fetch(`${url}/mcp-servers`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (created.status !== 201) throw new Error(`POST /mcp-servers answered ${created.status}`);
  const { serverId, accessToken } = (await created.json()) as { serverId: string; accessToken: string };
  const endpoint = `${url}/mcp/${serverId}/${accessToken}`;
  const headers = {
    authorization: `Bearer ${apiKey}`,
    'x-inlay-userid': userId,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  };
  const calls = {
    'MCP tools/list': { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    'MCP tools/call list_connectors_inlay': {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'list_connectors_inlay', arguments: {} },
    },
  } as const;
  return { endpoint, headers, calls };
}

/**
 * MCP `tools/list` and `tools/call` of a cheap tool (`list_connectors_inlay`: no database read), as an agent
 * sends them: a stateless 2025-11-25 POST with an API key and `x-inlay-userid`, through the rate limiter. The
 * baseline is bare Express answering the same POST with the same bytes and content type.
 */
export async function mcpPaths(opts: {
  suite: string;
  url: string;
  apiKey: string;
  userId: string;
  pid: number | undefined;
  seconds: number;
  rounds: number;
  target: boolean;
}): Promise<Measurement[]> {
  const { endpoint, headers, calls } = await mcpTarget(opts.url, opts.apiKey, opts.userId);
  const bodies: Record<string, { body: string; type: string }> = {};
  for (const [name, rpc] of Object.entries(calls)) {
    const res = await fetch(endpoint, { method: 'POST', headers, body: JSON.stringify(rpc) });
    const body = await res.text();
    if (!res.ok || !body.includes('"result"')) throw new Error(`${name} answered ${res.status}: ${body}`);
    bodies[`/${encodeURIComponent(name)}`] = { body, type: res.headers.get('content-type') ?? '' };
  }
  const file = join(mkdtempSync(join(tmpdir(), 'inlay-bench-')), 'mcp-bodies.json');
  writeFileSync(file, JSON.stringify(bodies));
  const bare = await startChild<{ url: string }>('servers/bare.ts', [file]);
  try {
    const out: Measurement[] = [];
    for (const [name, rpc] of Object.entries(calls)) {
      const path = `/${encodeURIComponent(name)}`;
      const body = JSON.stringify(rpc);
      const { subject, baseline, ratio } = await compare(
        { url: endpoint, method: 'POST', headers, body, seconds: opts.seconds, pid: opts.pid },
        {
          url: `${bare.info.url}${path}`,
          method: 'POST',
          headers,
          body,
          seconds: opts.seconds,
          pid: bare.proc.pid,
        },
        opts.rounds,
      );
      if (subject.errors || subject.non2xx)
        throw new Error(`${name}: ${subject.errors} errors, ${subject.non2xx} non-2xx`);
      const size = `${Math.round(bodies[path]!.body.length / 102.4) / 10} kB`;
      out.push(
        {
          suite: opts.suite,
          name: `${name} throughput`,
          value: subject.rps,
          unit: 'req/s',
          baseline: baseline.rps,
          ratio,
          note: size,
          ...(opts.target && name === 'MCP tools/list'
            ? {
                target: {
                  on: 'ratio' as const,
                  op: '>=' as const,
                  value: 0.5,
                  label: '≥ 50% of bare handler',
                },
              }
            : {}),
        },
        ...cpuPerRequest(opts.suite, `${name} service CPU per request`, subject, baseline),
        {
          suite: opts.suite,
          name: `${name} p50`,
          value: subject.p50,
          unit: 'ms',
          baseline: baseline.p50,
          ratio: baseline.p50 ? subject.p50 / baseline.p50 : undefined,
        },
      );
    }
    return out;
  } finally {
    await bare.stop();
  }
}
