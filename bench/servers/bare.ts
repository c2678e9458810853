import { readFileSync } from 'node:fs';
import { listen } from '@inlay/service';
import express from 'express';
import { ready } from '../lib/proc.ts';

/**
 * The baseline: bare Express answering each route with a static body of the same size as Inlay's. A body is a
 * string (served as JSON) or `{body, type}` (MCP answers as an event stream); any method gets it, so a POST
 * baseline (MCP) does not parse what it is sent, and Inlay does.
 */
const bodies = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Record<
  string,
  string | { body: string; type: string }
>;
const app = express();
for (const [path, b] of Object.entries(bodies)) {
  const { body, type } = typeof b === 'string' ? { body: b, type: 'application/json' } : b;
  app.all(path, (_req, res) => {
    res.type(type).send(body);
  });
}
const server = await listen(app, 0, '127.0.0.1');
ready({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
