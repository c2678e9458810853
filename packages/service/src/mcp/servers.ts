import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import type { McpRestrictions, McpServer } from '@inlay/contract';
import { and, asc, eq } from 'drizzle-orm';
import { sha256 } from '../accounts/api-keys.ts';
import type { AppContext } from '../context.ts';
import { preparedPerStore } from '../store/prepared.ts';
import { mcpServers } from '../store/schema.ts';
import type { Db } from '../store/store.ts';

export type McpServerRow = typeof mcpServers.$inferSelect;

export const mcpUrl = (publicUrl: string, serverId: string, accessToken: string) =>
  `${publicUrl}/mcp/${serverId}/${accessToken}`;

export function toMcpServer(row: McpServerRow): McpServer {
  return {
    serverId: row.id,
    name: row.name,
    description: row.description,
    restrictions: row.restrictions as McpRestrictions,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Creates a server; its access token is returned once and stored only as a hash. */
export async function createMcpServer(
  db: Db,
  accountId: string,
  body: { name: string; description?: string; restrictions?: McpRestrictions },
) {
  const id = randomUUID();
  const accessToken = `inlay_mcp_${randomBytes(24).toString('base64url')}`;
  await db.insert(mcpServers).values({
    id,
    accountId,
    name: body.name,
    description: body.description ?? null,
    restrictions: body.restrictions ?? {},
    tokenHash: sha256(accessToken),
  });
  return { id, accessToken };
}

export async function listMcpServers(db: Db, accountId: string) {
  return db
    .select()
    .from(mcpServers)
    .where(eq(mcpServers.accountId, accountId))
    .orderBy(asc(mcpServers.createdAt));
}

/**
 * Changes a server's name, description or restrictions (already checked); undefined when the account has no
 * such server. Its row in every node's read cache is dropped by the change it announces (see findByToken).
 */
export async function updateMcpServer(
  db: Db,
  accountId: string,
  id: string,
  changes: { name?: string; description?: string | null; restrictions?: McpRestrictions },
): Promise<McpServerRow | undefined> {
  const [row] = await db
    .update(mcpServers)
    .set(changes)
    .where(and(eq(mcpServers.id, id), eq(mcpServers.accountId, accountId)))
    .returning();
  return row;
}

export async function deleteMcpServer(db: Db, accountId: string, id: string): Promise<boolean> {
  const gone = await db
    .delete(mcpServers)
    .where(and(eq(mcpServers.id, id), eq(mcpServers.accountId, accountId)))
    .returning({ id: mcpServers.id });
  return gone.length > 0;
}

const findServer = preparedPerStore<McpServerRow>(
  'inlay_find_mcp_server',
  `select id, account_id as "accountId", name, description, restrictions, token_hash as "tokenHash",
          created_at as "createdAt" from mcp_servers where id = $1`,
);

/**
 * The server an MCP URL names, when the access token matches; compared in constant time. The row is kept in the
 * read cache: any write to the row (a `PATCH` of its restrictions, a delete, on any node, plain SQL included)
 * announces a change to its account (`drizzle/0013_mcp_server_changes.sql`), which drops it, as a revoked API key
 * is dropped. A write through this node's pool drops it before the writer's next request (`store/local-writes.ts`);
 * the node that changed or deleted it also drops it before it answers (`forgetMcpServers`), PGlite included.
 */
export async function findByToken(
  ctx: Pick<AppContext, 'reads' | 'store'>,
  id: string,
  accessToken: string,
): Promise<McpServerRow | undefined> {
  const row = await ctx.reads.through(
    `mcp-server|${id}`,
    async () => (await findServer(ctx.store)([id]))[0],
    // A miss is not kept: the creation that would end it announces nothing about this id.
    (r) => r && { accountId: r.accountId, bytes: 512 + JSON.stringify(r.restrictions).length },
  );
  if (!row) return undefined;
  const given = Buffer.from(sha256(accessToken), 'hex');
  const stored = Buffer.from(row.tokenHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored) ? row : undefined;
}

/**
 * After this node changed or deleted an account's server: the trigger's notification reaches every node, this one
 * too, but asynchronously, and the next request here must already find the change.
 */
export function forgetMcpServers(ctx: Pick<AppContext, 'store'>, accountId: string): void {
  ctx.store.changes.publish({ kind: 'account', accountId });
}
