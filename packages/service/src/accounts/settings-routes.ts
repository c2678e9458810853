import { UpdateAccountSettingsBody } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { requireApiKey } from '../http/auth.ts';
import { notFound } from '../http/problem.ts';
import { parse } from '../http/validate.ts';
import { checkAllowedOrigins, loadSettings, saveAllowedOrigins } from './settings.ts';

/** `GET|PUT /settings`: account-wide settings, API key only (a user must not widen where OAuth may land). */
export function settingsRoutes(ctx: AppContext): Router {
  const r = Router();
  // Set for the whole service (environment), shown with the account's own so the console can say so.
  const serviceWide = { logRetentionDays: ctx.config.logRetentionDays };
  r.get('/settings', requireApiKey, async (req, res) => {
    const settings = await loadSettings(ctx.db, req.principal!.accountId);
    if (!settings) throw notFound('Account');
    res.json({ data: { ...settings, ...serviceWide } });
  });
  r.put('/settings', requireApiKey, async (req, res) => {
    const body = parse(UpdateAccountSettingsBody, req.body, 'body');
    const settings = await saveAllowedOrigins(
      ctx.db,
      req.principal!.accountId,
      checkAllowedOrigins(body.allowedOrigins),
    );
    if (!settings) throw notFound('Account');
    res.json({ data: { ...settings, ...serviceWide } });
  });
  return r;
}
