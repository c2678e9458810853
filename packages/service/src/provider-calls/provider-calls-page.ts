import type { ProviderCall, ProviderCallKind } from '@inlay/contract';
import { and, desc, eq, gte, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import { invalid } from '../http/problem.ts';
import { isUuid } from '../http/validate.ts';
import { providerCalls } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export interface ProviderCallFilter {
  accountId: string;
  userId?: string;
  credentialId?: string;
  connector?: string;
  kind?: ProviderCallKind;
  failed?: boolean;
  from?: Date;
  to?: Date;
  cursor?: string;
  limit: number;
}

const encodeCursor = (at: Date, id: string) => Buffer.from(`${at.toISOString()}|${id}`).toString('base64url');

function decodeCursor(cursor: string): { at: Date; id: string } {
  const [iso, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const at = new Date(iso ?? '');
  if (!id || !isUuid(id) || Number.isNaN(at.getTime()))
    throw invalid('query.cursor', 'format', "cursor must be a previous page's nextCursor");
  return { at, id };
}

/**
 * One page of the account's provider calls, newest first. The keyset `(at, id) < cursor` is a range of the
 * account, user or connection index, so a page costs the same at any history size.
 */
export async function providerCallsPage(
  db: Db,
  f: ProviderCallFilter,
): Promise<{ data: ProviderCall[]; nextCursor?: string }> {
  const t = providerCalls;
  const where: (SQL | undefined)[] = [eq(t.accountId, f.accountId)];
  if (f.userId) where.push(eq(t.userId, f.userId));
  if (f.credentialId) where.push(eq(t.credentialId, f.credentialId));
  if (f.connector) where.push(eq(t.connector, f.connector));
  if (f.kind) where.push(eq(t.kind, f.kind));
  if (f.failed === true) where.push(or(isNull(t.status), gte(t.status, 400)));
  if (f.failed === false) where.push(lt(t.status, 400));
  if (f.from) where.push(gte(t.at, f.from));
  if (f.to) where.push(lt(t.at, f.to));
  if (f.cursor) {
    const c = decodeCursor(f.cursor);
    where.push(sql`(${t.at}, ${t.id}) < (${c.at.toISOString()}::timestamptz, ${c.id}::uuid)`);
  }
  const rows = await db
    .select()
    .from(t)
    .where(and(...where))
    .orderBy(desc(t.at), desc(t.id))
    .limit(f.limit + 1);
  const page = rows.slice(0, f.limit);
  const last = page.at(-1);
  return {
    data: page.map((r) => ({
      providerCallId: r.id,
      at: r.at.toISOString(),
      kind: r.kind,
      userId: r.userId,
      credentialId: r.credentialId,
      connector: r.connector,
      method: r.method,
      route: r.route,
      status: r.status,
      durationMs: r.durationMs,
      bytes: r.bytes,
      executionId: r.executionId,
    })),
    ...(rows.length > f.limit && last ? { nextCursor: encodeCursor(last.at, last.id) } : {}),
  };
}
