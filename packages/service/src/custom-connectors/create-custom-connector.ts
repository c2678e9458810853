import { randomUUID } from 'node:crypto';
import type { DeclarativeConnector } from '@inlay/contract';
import type { AppContext } from '../context.ts';
import { conflict } from '../http/problem.ts';
import { customConnectors, customConnectorVersions } from '../store/schema.ts';
import type { CustomConnectorRow } from './custom-connector-store.ts';
import { prepareDefinition } from './prepare-definition.ts';

/**
 * Stores a validated definition as version 1 of one of the account's own connectors (`POST /connectors`,
 * `POST /connectors/import?create=true`). 409 naming `body.id` when it is a built-in's or the account's already.
 */
export async function createCustomConnector(
  ctx: AppContext,
  accountId: string,
  body: DeclarativeConnector,
): Promise<CustomConnectorRow> {
  if (ctx.connectors.get(body.id)) throw conflict('body.id', `"${body.id}" is a built-in connector`);
  const definition = prepareDefinition(body, ctx.connectors.egress);
  const id = randomUUID();
  const row = await ctx.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(customConnectors)
      .values({ id, accountId, slug: body.id, version: 1, definition })
      .onConflictDoNothing()
      .returning();
    if (created) await tx.insert(customConnectorVersions).values({ connectorId: id, version: 1, definition });
    return created;
  });
  if (!row) throw conflict('body.id', `the account already has a connector "${body.id}"`);
  return row;
}
