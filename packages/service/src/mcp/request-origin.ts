import type { Request } from 'express';
import type { Config } from '../config.ts';

/**
 * Where an MCP request may come from. The MCP specification requires the `Origin` check (and the `Host`
 * check closes the same DNS-rebinding hole for clients that send no `Origin`): a page on `evil.example`
 * that rebinds its name to this server's address sends `Host: evil.example` and `Origin: http://evil.example`.
 */
export interface OriginRules {
  hosts: ReadonlySet<string>;
  origins: ReadonlySet<string>;
  /** Outside production, browser-based clients on this machine (an MCP inspector on localhost) may call. */
  loopbackOrigins: boolean;
}

const LOOPBACK_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function originRules(config: Config): OriginRules {
  return {
    hosts: new Set(config.mcpAllowedHosts),
    origins: new Set([
      new URL(config.publicUrl).origin,
      new URL(config.mcpPublicUrl).origin,
      ...config.mcpAllowedOrigins,
    ]),
    loopbackOrigins: !config.production,
  };
}

/**
 * Why the request's `Host` is refused; undefined when it names this service. `req.hostname` drops the port
 * and, behind a trusted proxy (`INLAY_TRUST_PROXY`), reads `X-Forwarded-Host`.
 */
export function hostProblem(req: Request, rules: OriginRules): string | undefined {
  const host = req.hostname?.toLowerCase();
  if (!host) return 'The request has no Host header';
  if (rules.hosts.has(host)) return undefined;
  return `Host "${host}" is not this service's public host (${[...rules.hosts].join(', ')}); set INLAY_PUBLIC_URL or INLAY_MCP_PUBLIC_URL to the URL agents use`;
}

/**
 * Why the request's `Origin` is refused; undefined when there is none (agents that are not browsers send
 * none) or when it is allowed: the public URLs' origins, `INLAY_MCP_ALLOWED_ORIGINS`, the account's own
 * allowed origins, and loopback origins outside production.
 */
export function originProblem(
  origin: string | undefined,
  rules: OriginRules,
  accountOrigins: readonly string[],
): string | undefined {
  if (origin === undefined) return undefined;
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {}
  const normal = url && ['http:', 'https:'].includes(url.protocol) ? url.origin : undefined;
  if (normal) {
    if (rules.origins.has(normal) || accountOrigins.includes(normal)) return undefined;
    if (rules.loopbackOrigins && LOOPBACK_HOSTNAMES.has(url!.hostname)) return undefined;
  }
  return `Origin "${origin.slice(0, 200)}" is not an allowed origin of this account`;
}
