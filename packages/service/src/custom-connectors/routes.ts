import { toConnector } from '@inlay/connectors';
import { type DeclarativeConnector, operations as ops } from '@inlay/contract';
import { and, eq, sql } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { announceDeleted, DELETED } from '../credentials/announce-deleted.ts';
import { HttpProblem, notFound, unprocessable } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { credentials, customConnectors, customConnectorVersions, oauthApps } from '../store/schema.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import { createCustomConnector } from './create-custom-connector.ts';
import { connectorUsage, droppedInUse, findCustom } from './custom-connector-store.ts';
import { prepareDefinition } from './prepare-definition.ts';

/**
 * `POST /connectors`, `PUT|DELETE /connectors/{connector}`, `GET /connectors/{connector}/definition` (API key only): the account's own connectors,
 * declarative definitions that run like the built-ins. `GET /connectors` lists them with `custom: true`.
 */
/** The origins a definition sends credentials to, in a stable order. */
const hostsOf = (d: DeclarativeConnector) =>
  [
    d.baseUrl,
    ...Object.values(d.apis ?? {}),
    ...(d.auth.type === 'oauth2' ? [d.auth.tokenUrl, d.auth.authorizeUrl] : []),
  ]
    .map((u) => new URL(u).origin)
    .sort()
    .join(' ');

export function customConnectorRoutes(ctx: AppContext, defs: DefinitionCache): Router {
  const r = Router();
  const shown = (row: typeof customConnectors.$inferSelect) =>
    toConnector(ctx.registry.compile(row), ctx.config.publicUrl);

  route(r, ops.createConnector, async (req, res, { body }) => {
    const row = await createCustomConnector(ctx, req.principal!.accountId, body);
    res.status(201).json({ data: shown(row) });
  });

  // An editor needs what was stored, not the compiled catalog entry `GET /connectors` shows.
  route(r, ops.getConnectorDefinition, async (req, res, { query: q }) => {
    const slug = String(req.params.connector);
    // Scoped by account: another account's connector answers like a missing one (and a built-in has none).
    const current = await findCustom(ctx, req.principal!.accountId, slug);
    if (!current) throw notFound('Connector');
    const version = q.version ?? current.version;
    const [row] =
      version <= current.version
        ? await ctx.db
            .select()
            .from(customConnectorVersions)
            .where(
              and(
                eq(customConnectorVersions.connectorId, current.id),
                eq(customConnectorVersions.version, version),
              ),
            )
        : [];
    if (!row) throw notFound('Connector version');
    res.json({
      data: {
        id: slug,
        version,
        currentVersion: current.version,
        definition: row.definition,
        createdAt: row.createdAt.toISOString(),
      },
    });
  });

  // The body is checked first, as on every route: a malformed request is a 400 whether or not the connector exists.
  route(r, ops.updateConnector, async (req, res, { body }) => {
    const slug = String(req.params.connector);
    const accountId = req.principal!.accountId;
    const current = await findCustom(ctx, accountId, slug);
    if (!current) throw notFound('Connector');
    if (body.id !== slug) throw unprocessable('body.id', 'immutable', `must stay "${slug}"`);
    const definition = prepareDefinition(body, ctx.connectors.egress);
    // Installed workflows keep calling what they were installed with: a version may add, never take away.
    const dropped = droppedInUse(await connectorUsage(ctx, defs, accountId, slug), body);
    if (dropped.length)
      throw new HttpProblem(
        409,
        'conflict',
        `Installed workflows use ${dropped.join(', ')}, which this version drops`,
        {
          errors: dropped.map((d) => ({
            field: 'body',
            rule: 'in_use',
            message: `${d} is used by an installed workflow`,
          })),
        },
      );
    const row = await ctx.db.transaction(async (tx) => {
      // Incrementing in SQL serialises concurrent publishes on the row.
      const [updated] = await tx
        .update(customConnectors)
        .set({ version: sql`${customConnectors.version} + 1`, definition, updatedAt: new Date() })
        .where(eq(customConnectors.id, current.id))
        .returning();
      if (updated)
        await tx
          .insert(customConnectorVersions)
          .values({ connectorId: updated.id, version: updated.version, definition });
      return updated;
    });
    if (!row) throw notFound('Connector');
    // The users' secrets were given for the hosts the connector called: new hosts need their consent again.
    if (hostsOf(current.definition as DeclarativeConnector) !== hostsOf(definition))
      await ctx.credentials.requireReconnect(
        accountId,
        slug,
        `${definition.name} now calls another host; reconnect to allow it`,
      );
    res.json({ data: shown(row) });
  });

  route(r, ops.deleteConnector, async (req, res) => {
    const slug = String(req.params.connector);
    const accountId = req.principal!.accountId;
    const current = await findCustom(ctx, accountId, slug);
    if (!current) throw notFound('Connector');
    if ((await connectorUsage(ctx, defs, accountId, slug)).installed)
      throw new HttpProblem(
        409,
        'conflict',
        `A workflow that uses "${slug}" is installed: uninstall it first`,
      );
    const gone = await ctx.db.transaction(async (tx) => {
      await tx.delete(customConnectors).where(eq(customConnectors.id, current.id));
      await tx
        .delete(oauthApps)
        .where(and(eq(oauthApps.accountId, accountId), eq(oauthApps.connector, slug)));
      // A later connector with the same id may call another host: the secrets given to this one go with it.
      return tx
        .delete(credentials)
        .where(and(eq(credentials.accountId, accountId), eq(credentials.connector, slug)))
        .returning(DELETED);
    });
    announceDeleted(ctx, accountId, gone, 'connector_deleted');
    res.json({ message: 'Success' });
  });

  return r;
}
