import { inlay } from '@inlay/express';
import { listen } from '@inlay/service';
import express from 'express';
import { ready } from '../lib/proc.ts';

/** A host backend as docs/backends.md shows it: @inlay/express mounted at /inlay for one signed-in user. */
const [serviceUrl, apiKey, userId] = process.argv.slice(2) as [string, string, string];
const app = express();
app.use('/inlay', inlay({ serviceUrl, apiKey, userId: () => userId }));
const server = await listen(app, 0, '127.0.0.1');
ready({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}` });
process.on('SIGTERM', () => {
  server.close();
  process.exit(0);
});
