import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { catalog } from '@inlay/connectors';

/**
 * A local stand-in for every third-party API: answers each request with `status` and records what it got.
 * `env` points every catalog connector (base, authorize and token URLs) at it, so nothing leaves the machine.
 */
export async function startStubProvider(status = 401, body: unknown = { error: 'invalid_auth' }) {
  const received: { method: string; url: string; headers: Record<string, unknown>; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let data = '';
    req.on('data', (d) => (data += d));
    req.on('end', () => {
      received.push({ method: req.method!, url: req.url!, headers: req.headers, body: data });
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const env: Record<string, string> = {};
  for (const c of catalog) {
    const id = c.id.toUpperCase().replace(/-/g, '_');
    env[`INLAY_CONNECTOR_${id}_BASE_URL`] = url;
    env[`INLAY_CONNECTOR_${id}_AUTHORIZE_URL`] = `${url}/authorize`;
    env[`INLAY_CONNECTOR_${id}_TOKEN_URL`] = `${url}/token`;
  }
  return {
    url,
    env,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
