import type { AccountSettings } from '@inlay/contract';
import { operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';
import {
  checkAllowedOrigins,
  checkLogRetention,
  loadSettings,
  retentionOf,
  type StoredSettings,
  saveSettings,
} from './settings.ts';

/** `GET|PUT /settings`: account-wide settings, API key only (a user must not widen where OAuth may land). */
export function settingsRoutes(ctx: AppContext): Router {
  const r = Router();
  const serviceDays = ctx.config.logRetentionDays;
  // The retention that applies, with the service's beside it so the console can say what the bounds are.
  const view = (s: StoredSettings): AccountSettings => ({
    allowedOrigins: s.allowedOrigins,
    logRetentionDays: retentionOf(s.logRetentionDays, serviceDays),
    ownLogRetention: s.logRetentionDays !== null,
    serviceLogRetentionDays: serviceDays,
  });
  route(r, ops.getSettings, async (req, res) => {
    const settings = await loadSettings(ctx.db, req.principal!.accountId);
    if (!settings) throw notFound('Account');
    res.json({ data: view(settings) });
  });
  route(r, ops.putSettings, async (req, res, { body }) => {
    // Every setting is checked before any is written: a bad one leaves all as they were.
    const changes: Partial<StoredSettings> = {};
    if (body.allowedOrigins !== undefined) changes.allowedOrigins = checkAllowedOrigins(body.allowedOrigins);
    if (body.logRetentionDays !== undefined)
      changes.logRetentionDays = checkLogRetention(body.logRetentionDays, serviceDays);
    const settings = await saveSettings(ctx.db, req.principal!.accountId, changes);
    if (!settings) throw notFound('Account');
    res.json({ data: view(settings) });
  });
  return r;
}
