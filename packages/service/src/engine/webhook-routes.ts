import { createHash, timingSafeEqual } from 'node:crypto';
import { operations as ops } from '@inlay/contract';
import { eq } from 'drizzle-orm';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { jsonBody } from '../http/json-body.ts';
import { notFound } from '../http/problem.ts';
import { requireJson } from '../http/require-json.ts';
import { route } from '../http/route.ts';
import { isUuid } from '../http/validate.ts';
import { webhookAad } from '../installations/installations.ts';
import type { Limiters } from '../ratelimit/limiters.ts';
import { limitWebhook } from '../ratelimit/rate-limit.ts';
import { installations } from '../store/schema.ts';
import type { Engine } from './engine.ts';
import { runFor, webhookWorkflows } from './installed.ts';

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();

/** Compares secrets in constant time: hashing first makes the lengths equal too. */
export const sameSecret = (a: string, b: string) => timingSafeEqual(digest(a), digest(b));

/**
 * `POST /hooks/{installationId}/{secret}`: public (the secret in the URL is the credential), mounted before
 * authentication. The JSON body becomes the run's `trigger`. An unknown installation and a wrong secret
 * answer the same 404; a disabled installation or inactive workflow accepts the call and runs nothing.
 * Calls are counted per installation (`INLAY_RATE_LIMIT_PER_WEBHOOK`); over the quota, a 429 with Retry-After.
 */
export function webhookRoutes(ctx: AppContext, engine: Engine, limiters: Limiters): Router {
  const r = Router();
  const gone = () => notFound('Webhook');

  // Any JSON body is the run's trigger, as it is.
  route(r, ops.runWebhook, { before: [requireJson, jsonBody('1mb')], raw: ['body'] }, async (req, res) => {
    const id = String(req.params.installationId);
    if (!isUuid(id)) throw gone();
    const [inst] = await ctx.db.select().from(installations).where(eq(installations.id, id.toLowerCase()));
    if (!inst?.webhookSecretSealed) throw gone();
    let expected: string;
    try {
      expected = ctx.vault.open(inst.webhookSecretSealed, webhookAad(inst));
    } catch {
      throw gone();
    }
    if (!sameSecret(expected, String(req.params.secret))) throw gone();
    await limitWebhook(limiters, inst.id, ctx.config.rateLimit.windowSeconds, res);
    const workflows = inst.enabled ? await webhookWorkflows(ctx.db, inst.id) : [];
    const trigger = req.body === undefined ? {} : req.body;
    const executionIds = await engine.enqueue(workflows.map((w) => runFor(w, trigger, 'webhook')));
    res.json({ message: 'success', executionIds });
  });

  return r;
}
