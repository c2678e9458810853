import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';

/** A local echo server: answers every request with `{ok, body}` where body is the JSON it was sent. */
export async function startEcho(): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer((req, res) => {
    let raw = '';
    req.setEncoding('utf8');
    req.on('data', (d) => (raw += d));
    req.on('end', () => {
      const out = JSON.stringify({ ok: true, body: raw ? JSON.parse(raw) : null });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(out) });
      res.end(out);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/**
 * The steps every engine comparison runs (Inlay's engine suite and the n8n side by side): an `http` POST of the
 * trigger's `n` to the echo server, then a `transform` that reshapes its answer.
 */
export const echoReshapeSteps = (echoUrl: string) => [
  {
    id: randomUUID(),
    name: 'echo',
    connector: 'http',
    action: 'request',
    input: { method: 'POST', url: `${echoUrl}/echo`, body: { n: '{{ trigger.n }}' } },
  },
  {
    id: randomUUID(),
    connector: 'transform',
    action: 'map',
    input: { expression: '{"n": steps.echo.body.body.n, "status": steps.echo.status}' },
  },
];
