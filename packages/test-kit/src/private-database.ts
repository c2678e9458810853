import { randomUUID } from 'node:crypto';
import pg from 'pg';

/**
 * A throwaway PostgreSQL database next to the shared test one, for tests whose processes must not meet the
 * rest of the suite's (every engine on a shared database sweeps and runs everyone's queued executions).
 */
export async function privateDatabase(prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${name}`;
  return {
    url: url.href,
    async drop() {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}
