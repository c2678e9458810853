// createInlayHandler, the web-standard function itself, served by Node's http server through the same two
// conversions any runtime makes (Request in, Response out), against the conformance suite.
import { backendConformance } from '@inlay/test-kit/backend-conformance';
import { createInlayHandler } from '../../src/index.ts';
import { sendWebResponse, webRequest } from '../../src/node.ts';
import { closer, createServer, listen } from '../helpers.ts';

backendConformance('createInlayHandler (web Request/Response)', async ({ serviceUrl, apiKey, timeoutMs }) => {
  const handler = createInlayHandler({
    serviceUrl,
    apiKey,
    timeoutMs,
    userId: (request) => request.headers.get('x-host-user'),
    autoCreateUsers: { username: (request) => request.headers.get('x-host-user') ?? '' },
  });
  const server = createServer((req, res) => {
    const request = webRequest(req, res, `http://${req.headers.host}`, req.url ?? '/');
    void handler(request, { clientIp: req.socket.remoteAddress }).then((r) => sendWebResponse(r, res));
  });
  const url = await listen(server);
  return { url, close: closer(server) };
});
