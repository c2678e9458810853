import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { checkRestrictions } from './check-restrictions.ts';
import {
  createMcpServer,
  deleteMcpServer,
  forgetMcpServers,
  listMcpServers,
  mcpUrl,
  toMcpServer,
  updateMcpServer,
} from './servers.ts';

export function mcpServerRoutes(ctx: AppContext): Router {
  const r = Router();

  route(r, ops.createMcpServer, async (req, res, { body }) => {
    checkRestrictions(await ctx.registry.forAccount(req.principal!.accountId), body.restrictions);
    const { id, accessToken } = await createMcpServer(ctx.db, req.principal!.accountId, body);
    res
      .status(201)
      .set('cache-control', 'no-store')
      .json({ serverId: id, accessToken, url: mcpUrl(ctx.config.mcpPublicUrl, id, accessToken) });
  });

  route(r, ops.listMcpServers, async (req, res) => {
    res.json({ data: (await listMcpServers(ctx.db, req.principal!.accountId)).map(toMcpServer) });
  });

  // Restrictions are checked as at creation; the tool list an agent gets is keyed by what they leave visible
  // (tool-list.ts), so the next request lists and allows what the new ones say.
  route(r, ops.updateMcpServer, async (req, res, { params: { serverId: id }, body }) => {
    const accountId = req.principal!.accountId;
    if (body.restrictions) checkRestrictions(await ctx.registry.forAccount(accountId), body.restrictions);
    const row = await updateMcpServer(ctx.db, accountId, id, body);
    if (!row) throw notFound('MCP server');
    forgetMcpServers(ctx, accountId);
    res.json({ data: toMcpServer(row) });
  });

  route(r, ops.deleteMcpServer, async (req, res, { params: { serverId: id } }) => {
    const gone = await deleteMcpServer(ctx.db, req.principal!.accountId, id);
    forgetMcpServers(ctx, req.principal!.accountId);
    if (!gone) throw notFound('MCP server');
    res.json({ message: 'Success' });
  });

  return r;
}
