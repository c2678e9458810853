import {
  builtins,
  type ConnectorDefinition,
  ConnectorError,
  dotSegmentProblem,
  type HttpMethod,
  type StreamedResponse,
} from '@inlay/connectors';
import type { AppContext } from '../context.ts';
import { HttpProblem, invalid, unprocessable } from '../http/problem.ts';
import { proxyCredential } from './proxy-credential.ts';

const BUILTIN_IDS = new Set(builtins.map((b) => b.id));
const PROXY_TIMEOUT_MS = 60_000;

/** Built-ins have no provider behind them: nothing to proxy to. */
export const isProxyable = (def: ConnectorDefinition) => !BUILTIN_IDS.has(def.id);

export interface ProxyRequest {
  method: HttpMethod;
  /** Below the connector's base URL (or its `api`'s); starts with `/`. */
  path: string;
  api?: string;
  query?: Record<string, string[]>;
  /** Already filtered to what may be forwarded. */
  headers?: Record<string, string>;
  body?: Buffer;
  /** The credential to act with; by default the user's only connected one. */
  credentialId?: string | string[];
}

/**
 * One proxy call as the user: picks the credential, sends through the connector runtime (base URL,
 * connector headers, the credential applied as actions apply it, egress policy, refresh after a 401) and
 * hands back the provider's answer with its body still streaming. Failures before an answer are problems.
 */
export async function sendProxy(
  ctx: AppContext,
  user: { accountId: string; id: string },
  def: ConnectorDefinition,
  req: ProxyRequest,
  used: { credentialId?: string } = {},
): Promise<StreamedResponse> {
  const path = req.path.startsWith('/') ? req.path : `/${req.path}`;
  // Refused before a credential is read or a URL built: the path must stay under the connector's base path.
  const dots = dotSegmentProblem(path);
  if (dots) throw invalid('path', 'no_dot_segments', dots);
  const credential = await proxyCredential(ctx, user, def, req.credentialId);
  used.credentialId = credential?.credentialId;
  try {
    return await ctx.registry.runtimeOf(def).stream(
      def,
      { method: req.method, path, api: req.api, query: req.query, headers: req.headers, body: req.body },
      {
        credential: credential?.secrets,
        onUnauthorized: credential?.refresh,
        onAuthRefused: credential?.authRefused,
        maxBytes: ctx.config.proxyMaxResponseBytes,
        timeoutMs: PROXY_TIMEOUT_MS,
      },
    );
  } catch (err) {
    throw proxyProblem(err, def.name);
  }
}

/** A refusal or failure before any answer arrived, as a problem. */
function proxyProblem(err: unknown, name: string): unknown {
  if (!(err instanceof ConnectorError)) return err;
  switch (err.code) {
    case 'egress_denied':
      return new HttpProblem(422, 'egress_denied', err.message, {
        errors: [{ field: 'connector', rule: 'egress', message: err.message }],
      });
    case 'forbidden_header':
      return invalid('header', 'forbidden', err.message);
    case 'invalid_url':
    case 'credential_origin_mismatch':
      return unprocessable('connector', 'url', err.message);
    case 'response_too_large':
      return new HttpProblem(
        502,
        'upstream_error',
        `${name} answered more than the proxy passes on: ${err.message}`,
      );
    default:
      return new HttpProblem(502, 'upstream_error', `${name}: ${err.message}`);
  }
}
