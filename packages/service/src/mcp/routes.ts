import { CreateMcpServerBody, UpdateMcpServerBody } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { requireApiKey } from '../http/auth.ts';
import { notFound } from '../http/problem.ts';
import { parse, pathId } from '../http/validate.ts';
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

  r.post('/mcp-servers', requireApiKey, async (req, res) => {
    const body = parse(CreateMcpServerBody, req.body, 'body');
    checkRestrictions(await ctx.registry.forAccount(req.principal!.accountId), body.restrictions);
    const { id, accessToken } = await createMcpServer(ctx.db, req.principal!.accountId, body);
    res
      .status(201)
      .set('cache-control', 'no-store')
      .json({ serverId: id, accessToken, url: mcpUrl(ctx.config.mcpPublicUrl, id, accessToken) });
  });

  r.get('/mcp-servers', requireApiKey, async (req, res) => {
    res.json({ data: (await listMcpServers(ctx.db, req.principal!.accountId)).map(toMcpServer) });
  });

  // Restrictions are checked as at creation; the tool list an agent gets is keyed by what they leave visible
  // (tool-list.ts), so the next request lists and allows what the new ones say.
  r.patch('/mcp-servers/:serverId', requireApiKey, async (req, res) => {
    const id = pathId(req.params.serverId, 'serverId');
    const body = parse(UpdateMcpServerBody, req.body, 'body');
    const accountId = req.principal!.accountId;
    if (body.restrictions) checkRestrictions(await ctx.registry.forAccount(accountId), body.restrictions);
    const row = await updateMcpServer(ctx.db, accountId, id, body);
    if (!row) throw notFound('MCP server');
    forgetMcpServers(ctx, accountId);
    res.json({ data: toMcpServer(row) });
  });

  r.delete('/mcp-servers/:serverId', requireApiKey, async (req, res) => {
    const id = pathId(req.params.serverId, 'serverId');
    const gone = await deleteMcpServer(ctx.db, req.principal!.accountId, id);
    forgetMcpServers(ctx, req.principal!.accountId);
    if (!gone) throw notFound('MCP server');
    res.json({ message: 'Success' });
  });

  return r;
}
