import { createServer } from 'node:http';
import { ready } from '../lib/proc.ts';

/** An OTLP/HTTP receiver that reads and drops every export, counting the bytes: the cheapest collector there is. */
let bytes = 0;
const server = createServer((req, res) => {
  req.on('data', (c: Buffer) => {
    bytes += c.length;
  });
  req.on('end', () => res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end());
});
server.listen(0, '127.0.0.1', () => {
  ready({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
});
process.on('SIGTERM', () => {
  process.stderr.write(`otlp sink received ${bytes} bytes\n`);
  server.close();
  process.exit(0);
});
