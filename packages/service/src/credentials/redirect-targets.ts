import { isLoopbackHost } from '../accounts/allowed-origins.ts';
import { loadSettings } from '../accounts/settings.ts';
import type { AppContext } from '../context.ts';
import { invalid, unprocessable } from '../http/problem.ts';

/**
 * Where an OAuth flow may send the browser (`redirectUri`) or post its result (the popup's origin): the
 * account's allowed origins, the service's own origin (an agent's flow without a redirect ends on Inlay's
 * page), and loopback origins outside production (a developer's page on localhost).
 */
export class RedirectTargets {
  private constructor(
    private readonly allowed: ReadonlySet<string>,
    private readonly own: string,
    private readonly production: boolean,
  ) {}

  static async of(ctx: AppContext, accountId: string): Promise<RedirectTargets> {
    const settings = await loadSettings(ctx.db, accountId);
    return new RedirectTargets(
      new Set(settings?.allowedOrigins ?? []),
      new URL(ctx.config.publicUrl).origin,
      ctx.config.production,
    );
  }

  /**
   * The origin of `value` when the flow may go there; otherwise a 400 (not an http(s) URL: `javascript:`
   * and friends never become a redirect or a postMessage target) or a 422 naming `field`.
   */
  check(value: string, field: string): string {
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {}
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:'))
      throw invalid(field, 'url', 'must be an absolute http(s) URL');
    const origin = url.origin;
    if (origin === this.own || this.allowed.has(origin)) return origin;
    if (!this.production && isLoopbackHost(url.hostname)) return origin;
    throw unprocessable(
      field,
      'allowed_origin',
      `${origin} is not one of the account's allowed origins${this.production ? '' : ' (loopback origins are allowed outside production)'}: add it with PUT /settings {allowedOrigins} or \`inlay settings allowed-origins add\``,
    );
  }
}
