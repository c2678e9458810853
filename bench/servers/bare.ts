import { readFileSync } from 'node:fs';
import { listen } from '@inlay/service';
import express from 'express';
import { ready } from '../lib/proc.ts';

/** The baseline: bare Express answering each route with a static body of the same size as Inlay's. */
const bodies = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<string, string>;
const app = express();
for (const [path, body] of Object.entries(bodies))
  app.get(path, (_req, res) => {
    res.type('application/json').send(body);
  });
const server = await listen(app, 0, '127.0.0.1');
ready({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
