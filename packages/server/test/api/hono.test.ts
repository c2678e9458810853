// The Hono adapter on @hono/node-server, against the conformance suite.
import { serve } from '@hono/node-server';
import { backendConformance } from '@inlay/test-kit/backend-conformance';
import { Hono } from 'hono';
import { inlayHono } from '../../src/hono.ts';

backendConformance('Hono (@hono/node-server)', async ({ serviceUrl, apiKey, timeoutMs }) => {
  const app = new Hono();
  app.get('/', (c) => c.text('host'));
  app.all(
    '/api/inlay/*',
    inlayHono({
      serviceUrl,
      apiKey,
      timeoutMs,
      userId: (c) => c.req.header('x-host-user') ?? null,
      autoCreateUsers: { username: (c) => c.req.header('x-host-user') ?? '' },
    }),
  );
  let server!: ReturnType<typeof serve>;
  const port = await new Promise<number>((resolve) => {
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, (info) => resolve(info.port));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        (server as import('node:http').Server).closeAllConnections?.();
        server.close(() => r());
      }),
  };
});
