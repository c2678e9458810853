import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { ready } from '../lib/proc.ts';
import { inlayNodeHandler } from '../lib/web-host.ts';

/**
 * A host backend of one framework with Inlay mounted at /inlay for one signed-in user, as docs/backends.md shows
 * it: `hono` (@hono/node-server), `fastify` (5), `next` (inlayRoute's handlers as Next.js calls them, on
 * node:http: the route's own cost, not Next's server) or `web` (createInlayHandler on node:http).
 */
const [framework, serviceUrl, apiKey, userId] = process.argv.slice(2) as [string, string, string, string];
const options = { serviceUrl, apiKey, userId: () => userId };
let url: string;
let close: () => void;

if (framework === 'hono') {
  const { Hono } = await import('hono');
  const { inlayHono } = await import('@inlay/server/hono');
  const app = new Hono();
  app.all('/inlay/*', inlayHono(options));
  const port = await new Promise<number>((resolve) => {
    const s = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
    close = () => s.close();
  });
  url = `http://127.0.0.1:${port}`;
} else if (framework === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const { inlayFastify } = await import('@inlay/server/fastify');
  const app = Fastify();
  await app.register(inlayFastify, { prefix: '/inlay', ...options });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
  close = () => void app.close();
} else {
  const server: Server = createServer(await inlayNodeHandler(framework, options));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
}
ready({ url });
process.on('SIGTERM', () => {
  close();
  process.exit(0);
});
