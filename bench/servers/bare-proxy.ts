import { Agent, createServer, request } from 'node:http';
import { ready } from '../lib/proc.ts';

/**
 * The floor under any proxy in its own process: plain node:http, kept-alive upstream, the token fixed, no
 * framework, no checks. What @inlay/express adds beyond this is its own cost; the rest is the extra hop.
 */
const [serviceUrl, token] = process.argv.slice(2) as [string, string];
const target = new URL(serviceUrl);
const agent = new Agent({ keepAlive: true });
const server = createServer((req, res) => {
  const path = (req.url ?? '/').replace(/^\/inlay/, '');
  const headers = { authorization: `Bearer ${token}` };
  const out = request({
    agent,
    hostname: target.hostname,
    port: target.port,
    path,
    method: req.method,
    headers,
  });
  out.on('response', (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  out.on('error', () => res.destroy());
  out.end();
});
server.listen(0, '127.0.0.1', () => {
  ready({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
});
process.on('SIGTERM', () => process.exit(0));
