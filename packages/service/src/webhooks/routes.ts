import { EgressDenied } from '@inlay/connectors';
import { operations as ops } from '@inlay/contract';
import { and, count, eq } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { HttpProblem, invalid, notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import { webhookEndpoints } from '../store/schema.ts';
import {
  createEndpoint,
  findEndpoint,
  listAccountDeliveries,
  listDeliveries,
  listEndpoints,
  toDelivery,
  toEndpoint,
} from './endpoints.ts';

/** `/webhook-endpoints`: the account's outbound webhooks (API key only; a user JWT is refused). */
export function webhookEndpointRoutes(ctx: AppContext): Router {
  const r = Router();

  route(r, ops.createWebhookEndpoint, async (req, res, { body }) => {
    const url = new URL(body.url);
    // Deliveries are signed; a password in the URL would be stored and listed back in plain text.
    if (url.username || url.password)
      throw invalid(
        'body.url',
        'no_credentials',
        'must not hold a user name or password: deliveries are signed (webhook-signature), so the receiver can verify them without one',
      );
    const accountId = req.principal!.accountId;
    const max = ctx.config.maxWebhookEndpoints;
    // Counted before the insert: concurrent creations can pass the cap by the requests in flight, no more.
    const [{ n } = { n: 0 }] = await ctx.db
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.accountId, accountId));
    if (n >= max)
      throw new HttpProblem(
        409,
        'conflict',
        `The account has ${n} webhook endpoints, the most it may have (INLAY_MAX_WEBHOOK_ENDPOINTS is ${max}): delete one, or subscribe an existing endpoint to more events.`,
        {
          errors: [
            { field: 'body', rule: 'max_count', message: `at most ${max} webhook endpoints per account` },
          ],
        },
      );
    try {
      ctx.connectors.egress.check(new URL(body.url));
    } catch (err) {
      if (!(err instanceof EgressDenied)) throw err;
      const message = `${err.message}. An operator can open it with INLAY_EGRESS_ALLOW`;
      throw new HttpProblem(422, 'egress_denied', `body.url ${message}`, {
        errors: [{ field: 'body.url', rule: 'egress', message }],
      });
    }
    const { id, secret } = await createEndpoint(ctx.db, ctx.vault, accountId, body);
    res.status(201).json({ webhookEndpointId: id, secret });
  });

  route(r, ops.listWebhookEndpoints, async (req, res) => {
    const rows = await listEndpoints(ctx.db, req.principal!.accountId);
    res.json({ data: rows.map(toEndpoint) });
  });

  route(r, ops.deleteWebhookEndpoint, async (req, res, { params: { webhookEndpointId: id } }) => {
    const gone = await ctx.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, req.principal!.accountId)))
      .returning({ id: webhookEndpoints.id });
    if (!gone.length) throw notFound('Webhook endpoint');
    res.json({ message: 'Success' });
  });

  route(r, ops.listAccountWebhookDeliveries, async (req, res, { query: q }) => {
    res.json(await listAccountDeliveries(ctx.db, req.principal!.accountId, q));
  });

  route(r, ops.listWebhookDeliveries, async (req, res, { params: { webhookEndpointId: id } }) => {
    const endpoint = await findEndpoint(ctx.db, req.principal!.accountId, id);
    if (!endpoint) throw notFound('Webhook endpoint');
    res.json({ data: (await listDeliveries(ctx.db, endpoint.id)).map(toDelivery) });
  });

  return r;
}
