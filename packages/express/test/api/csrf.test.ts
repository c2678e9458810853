// @inlay/express refuses writes another origin's page could make the browser send. Raw HTTP here (every
// header under the test's control); the same attacks from a real cross-origin page run in csrf-browser.test.ts.
import { randomUUID } from 'node:crypto';
import { installDirect, seedAccount } from '@inlay/test-kit/fixtures';
import { executions } from '@inlay/test-kit/schema';
import { type Service, sharedService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeUpstream, startHost } from '../helpers.ts';

let svc: Service;
let s: Awaited<ReturnType<typeof seedAccount>>;
let host: Awaited<ReturnType<typeof startHost>>;

const runs = async () =>
  (await svc.db.select().from(executions).where(eq(executions.workflowId, s.workflowId))).length;

/** POST /run/workflow as alice through the host, with the given headers and body. */
async function run(headers: Record<string, string>, body?: string, url = host.url) {
  const res = await fetch(`${url}/api/inlay/run/workflow`, {
    method: 'POST',
    headers: { 'x-host-user': 'alice', ...headers },
    body: body ?? JSON.stringify({ workflowId: s.workflowId, data: { n: 1 } }),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: JSON.parse(text) };
}

beforeAll(async () => {
  svc = await sharedService();
  s = await seedAccount(svc, {
    definition: {
      trigger: { type: 'manual' },
      steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: 'trigger' } }],
      config: [],
    },
  });
  await installDirect(svc.db, s);
  // The host of the issue: a global form parser ahead of everything, as many Express apps have.
  host = await startHost({
    serviceUrl: svc.url,
    apiKey: s.apiKey,
    before: [express.urlencoded({ extended: true }), express.json()],
    allowedOrigins: ['https://app.example.com/'],
  });
});
afterAll(async () => {
  await host?.close();
  await svc?.close();
});

describe('writes through @inlay/express', () => {
  it('runs the workflow for the client: JSON, x-inlay-client, same-origin', async () => {
    const before = await runs();
    const r = await run({
      'content-type': 'application/json',
      'x-inlay-client': '1',
      origin: host.url,
      'sec-fetch-site': 'same-origin',
    });
    expect(r.status).toBe(200);
    expect(r.body.executionIds).toHaveLength(1);
    expect(await runs()).toBe(before + 1);
  });

  it('refuses a form post the host already parsed: 403 without the header, 415 with it; nothing runs', async () => {
    const before = await runs();
    const form = `workflowId=${s.workflowId}&data[n]=1`;
    const type = { 'content-type': 'application/x-www-form-urlencoded' };
    const noHeader = await run({ ...type, origin: host.url }, form);
    expect(noHeader.status).toBe(403);
    expect(noHeader.type).toContain('application/problem+json');
    expect(noHeader.body).toMatchObject({ status: 403, code: 'forbidden' });
    expect(noHeader.body.errors[0]).toMatchObject({ field: 'header.x-inlay-client', rule: 'required' });
    const withHeader = await run({ ...type, origin: host.url, 'x-inlay-client': '1' }, form);
    expect(withHeader.status).toBe(415);
    expect(withHeader.body).toMatchObject({ code: 'unsupported_media_type' });
    expect(withHeader.body.errors[0]).toMatchObject({ field: 'header.content-type', rule: 'enum' });
    // A JSON text sent as text/plain (what a no-cors fetch can send) is no better.
    const plain = await run({ 'content-type': 'text/plain', 'x-inlay-client': '1' });
    expect(plain.status).toBe(415);
    expect(await runs()).toBe(before);
  });

  it('refuses a foreign, opaque or cross-site origin with 403, before any token is minted', async () => {
    const before = await runs();
    const json = { 'content-type': 'application/json', 'x-inlay-client': '1' };
    const foreign = await run({ ...json, origin: 'http://127.0.0.1:1' });
    expect(foreign.status).toBe(403);
    expect(foreign.body.errors[0]).toMatchObject({ field: 'header.origin', rule: 'allowed_origin' });
    expect(foreign.body.detail).toContain('http://127.0.0.1:1');
    expect((await run({ ...json, origin: 'null' })).status).toBe(403);
    expect((await run({ ...json, origin: 'not a url' })).status).toBe(403);
    const site = await run({ ...json, 'sec-fetch-site': 'cross-site' });
    expect(site.status).toBe(403);
    expect(site.body.errors[0]).toMatchObject({ field: 'header.sec-fetch-site', rule: 'not_cross_site' });
    // The same host seen cross-site by the browser: refused too.
    expect((await run({ ...json, origin: host.url, 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect(await runs()).toBe(before);
  });

  it('lets a configured origin write, even cross-site, and a predicate decide', async () => {
    const before = await runs();
    const json = { 'content-type': 'application/json', 'x-inlay-client': '1' };
    const listed = await run({ ...json, origin: 'https://app.example.com', 'sec-fetch-site': 'cross-site' });
    expect(listed.status).toBe(200);
    const byFn = await startHost({
      serviceUrl: svc.url,
      apiKey: s.apiKey,
      allowedOrigins: (origin) => origin.endsWith('.example.org'),
    });
    try {
      expect((await run({ ...json, origin: 'https://a.example.org' }, undefined, byFn.url)).status).toBe(200);
      expect((await run({ ...json, origin: 'https://example.net' }, undefined, byFn.url)).status).toBe(403);
    } finally {
      await byFn.close();
    }
    expect(await runs()).toBe(before + 2);
  });

  it('takes its own origin from X-Forwarded-Host only when the app trusts its proxy', async () => {
    const json = { 'content-type': 'application/json', 'x-inlay-client': '1' };
    const proxied = { ...json, origin: 'https://crm.example.com', 'x-forwarded-host': 'crm.example.com' };
    expect((await run(proxied)).status).toBe(403);
    const trusting = await startHost({ serviceUrl: svc.url, apiKey: s.apiKey, trustProxy: true });
    try {
      expect((await run(proxied, undefined, trusting.url)).status).toBe(200);
    } finally {
      await trusting.close();
    }
  });

  it('leaves reads alone: a GET needs neither the header nor a same-origin Origin', async () => {
    const res = await fetch(`${host.url}/api/inlay/workflows`, {
      headers: { 'x-host-user': 'alice', origin: 'http://127.0.0.1:1', 'sec-fetch-site': 'cross-site' },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: { workflowId: string }[] }).data[0]?.workflowId).toBe(s.workflowId);
  });

  it('rejects an http(s)-less allowedOrigins entry when mounted', async () => {
    await expect(() =>
      startHost({ serviceUrl: svc.url, apiKey: s.apiKey, allowedOrigins: ['javascript:alert(1)'] }),
    ).rejects.toThrow(/not an http\(s\) origin/);
  });
});

describe('proxied responses', () => {
  it('carry neither the service’s CORS headers nor its cookies', async () => {
    // The real service answers `access-control-allow-origin: *` to any Origin...
    const direct = await fetch(`${svc.url}/healthz`, { headers: { origin: 'http://127.0.0.1:1' } });
    expect(direct.headers.get('access-control-allow-origin')).toBe('*');
    // ...which must not speak for the host: through the proxy, from the service and from any upstream.
    const viaProxy = await fetch(`${host.url}/api/inlay/workflows`, {
      headers: { 'x-host-user': 'alice', origin: 'http://127.0.0.1:1' },
    });
    expect(viaProxy.status).toBe(200);
    expect([...viaProxy.headers.keys()].filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const up = await startFakeUpstream({
      'access-control-allow-origin': '*',
      'access-control-allow-credentials': 'true',
      'access-control-expose-headers': 'x-kept',
      'set-cookie': 'sid=upstream',
    });
    const h = await startHost({ serviceUrl: up.url, apiKey: 'inlay_test_secretsecretsecret' });
    try {
      const r = await fetch(`${h.url}/api/inlay/echo`, { headers: { 'x-host-user': 'u' } });
      expect(r.status).toBe(200);
      const names = [...r.headers.keys()];
      expect(names).toContain('x-kept');
      expect(names.filter((n) => n.startsWith('access-control-') || n === 'set-cookie')).toEqual([]);
    } finally {
      await h.close();
      await up.close();
    }
  });
});
