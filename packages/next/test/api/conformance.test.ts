// inlayRoute's handlers, called as Next.js calls a route handler (a web Request in, a Response out), on Node's
// http server, against the conformance suite. The real `next build` and `next start` run in test/pack.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendWebResponse, webRequest } from '@inlay/server/node';
import { backendConformance } from '@inlay/test-kit/backend-conformance';
import { inlayRoute } from '../../src/index.ts';

backendConformance('Next.js route handlers (inlayRoute)', async ({ serviceUrl, apiKey, timeoutMs }) => {
  const route = inlayRoute({
    serviceUrl,
    apiKey,
    timeoutMs,
    userId: (request) => request.headers.get('x-host-user'),
    autoCreateUsers: { username: (request) => request.headers.get('x-host-user') ?? '' },
  });
  const server = createServer((req, res) => {
    const handler = route[req.method as keyof typeof route];
    if (!handler) {
      res.writeHead(405).end();
      return;
    }
    void handler(webRequest(req, res, `http://${req.headers.host}`, req.url ?? '/')).then((r) =>
      sendWebResponse(r, res),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
});
