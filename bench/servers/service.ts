import { parseArgs } from 'node:util';
import { createApp, listen, loadConfig } from '@inlay/service';
import { sql } from 'drizzle-orm';
import { ready } from '../lib/proc.ts';
import { bulkHistory, seedReadPath } from './seed.ts';

const API_KEY = 'inlay_live_bench_0123456789abcdef';
const { values } = parseArgs({ options: { history: { type: 'string' } } });

const config = loadConfig({
  ...process.env,
  PORT: '0',
  INLAY_BOOTSTRAP_API_KEY: API_KEY,
  INLAY_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
  INLAY_RATE_LIMIT_PER_KEY: '0',
  INLAY_RATE_LIMIT_PER_USER: '0',
  LOG_LEVEL: 'silent',
});
const app = await createApp(config);
const server = await listen(app, 0, '127.0.0.1');
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const found = await app.context.db.execute(sql`select account_id as "accountId" from api_keys limit 1`);
const { accountId } = (found as unknown as { rows: { accountId: string }[] }).rows[0]!;
const seeded = await seedReadPath(app, accountId!);
const history = values.history
  ? await bulkHistory(app, accountId!, seeded.workflowIds, Number(values.history))
  : undefined;
ready({ url, apiKey: API_KEY, accountId, ...seeded, historyUsers: history?.userIds });
process.on('SIGTERM', async () => {
  server.close();
  await app.close();
  process.exit(0);
});
