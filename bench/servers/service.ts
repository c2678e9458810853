import { parseArgs } from 'node:util';
import { createApp, listen, loadConfig } from '@inlay/service';
import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { ready } from '../lib/proc.ts';
import { bulkHistory, seedReadPath } from './seed.ts';

const API_KEY = 'inlay_live_bench_0123456789abcdef';
const { values } = parseArgs({
  options: {
    history: { type: 'string' },
    // `on`: the default limiter (batched shared counters) with a quota no bench reaches; `off`: no limiter.
    limiter: { type: 'string', default: 'off' },
    // `off`: keep no log pages and no entries, so every logs request is composed by the database (a cold page);
    // `entries`: keep entries only, so every logs request is assembled from kept entries (a page that changed);
    // `cold`: keep no pages and room for no entry, so every request takes a default service's first-view path.
    'log-pages': { type: 'string', default: 'on' },
    // Serve a database another process seeded.
    'serve-only': { type: 'boolean', default: false },
  },
});
const quota = values.limiter === 'on' ? '10000000' : '0';

const loaded = loadConfig({
  ...process.env,
  PORT: '0',
  INLAY_BOOTSTRAP_API_KEY: API_KEY,
  INLAY_MASTER_KEY: Buffer.alloc(32, 9).toString('base64'),
  INLAY_RATE_LIMIT_PER_KEY: quota,
  INLAY_RATE_LIMIT_PER_USER: quota,
  LOG_LEVEL: 'silent',
});
const keeping = values['log-pages'];
const config = {
  ...loaded,
  ...(keeping === 'on' ? {} : { logPagesBytes: 0 }),
  ...(keeping === 'off' ? { logEntriesBytes: 0 } : keeping === 'cold' ? { logEntriesBytes: 1 } : {}),
};
const app = await createApp(config);
const server = await listen(app, 0, '127.0.0.1');
const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
const found = await app.context.db.execute(sql`select account_id as "accountId" from api_keys limit 1`);
const { accountId } = (found as unknown as { rows: { accountId: string }[] }).rows[0]!;
const seeded = values['serve-only'] ? undefined : await seedReadPath(app, accountId!);
const history =
  seeded && values.history ? await loadHistory(seeded.workflowIds, Number(values.history)) : undefined;

/** A million runs take longer to generate than the service pool's 30 s query timeout: its own connection. */
async function loadHistory(workflowIds: string[], total: number) {
  if (!process.env.DATABASE_URL) return bulkHistory(app.context.db, accountId!, workflowIds, total);
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const db = drizzle(client) as unknown as typeof app.context.db;
    return await bulkHistory(db, accountId!, workflowIds, total);
  } finally {
    await client.end();
  }
}
ready({ url, apiKey: API_KEY, accountId, ...seeded, historyUsers: history?.userIds });
process.on('SIGTERM', async () => {
  server.close();
  await app.close();
  process.exit(0);
});
