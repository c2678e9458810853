import { createInlayHandler } from '@inlay/server';

/**
 * The CPU time of @inlay/server's core per proxied `GET /workflows`, in-process: `createInlayHandler` with its
 * `fetch` answering at once (no network, no service), the web `Request` built and the answer read as an adapter
 * does. What every adapter spends in the core; process CPU time over many calls, which load on the machine barely
 * moves. In microseconds.
 */
export async function coreCost(calls: number): Promise<number> {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
  const exp = Math.floor(Date.now() / 1000) + 3600;
  const token = `${part({ alg: 'EdDSA' })}.${part({ sub: 'u1', exp })}.sig`;
  const body = JSON.stringify({
    data: Array.from({ length: 5 }, (_, i) => ({ id: i, name: `workflow ${i}` })),
  });
  const answer: typeof fetch = async (input) => {
    if (String(input).endsWith('/token'))
      return Response.json({ token, expiresAt: new Date(exp * 1000).toISOString() });
    return new Response(body, { headers: { 'content-type': 'application/json' } });
  };
  const handler = createInlayHandler({
    serviceUrl: 'http://127.0.0.1:9',
    apiKey: 'inlay_test_core_cost',
    userId: () => 'alice',
    fetch: answer,
    basePath: '/inlay',
  });
  const headers = { accept: 'application/json', 'accept-encoding': 'gzip', 'user-agent': 'bench' };
  const one = async () => {
    const r = await handler(new Request('http://127.0.0.1:3000/inlay/workflows', { headers }));
    await r.text();
  };
  for (let i = 0; i < Math.min(5000, calls); i++) await one();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await one();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}
