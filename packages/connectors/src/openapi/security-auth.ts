import type { DeclarativeConnector } from '@inlay/contract';
import { absoluteUrl } from './base-url.ts';
import type { ImportWarning } from './import-error.ts';
import type { ApiDocument } from './read-document.ts';

type Auth = DeclarativeConnector['auth'];

const secret = (name: string, label: string) => ({
  name,
  label: label.slice(0, 255),
  type: 'password' as const,
  required: true,
  secret: true,
});

/** One security scheme in Inlay's auth vocabulary; a string says why it cannot be. */
function toAuth(s: Record<string, any>, baseUrl: string): Auth | string {
  const type = String(s.type ?? '');
  if (type === 'apiKey') {
    if (s.in !== 'header' && s.in !== 'query')
      return `API key in ${s.in ?? 'an unknown place'} is not supported (header or query only)`;
    return {
      type: 'apiKey',
      in: s.in,
      name: String(s.name),
      format: '{apiKey}',
      fields: [secret('apiKey', `${s.name} (API key)`)],
    };
  }
  if (type === 'basic' || (type === 'http' && String(s.scheme).toLowerCase() === 'basic'))
    return {
      type: 'basic',
      username: '{username}',
      password: '{password}',
      fields: [
        { name: 'username', label: 'Username', type: 'text', required: true, secret: false },
        secret('password', 'Password'),
      ],
    };
  if (type === 'http' && String(s.scheme).toLowerCase() === 'bearer')
    return {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      format: 'Bearer {token}',
      fields: [secret('token', s.bearerFormat ? `Token (${s.bearerFormat})` : 'Token')],
    };
  if (type === 'http') return `HTTP "${s.scheme}" authentication is not supported (basic and bearer are)`;
  if (type === 'oauth2') {
    // 3.x: flows.authorizationCode; 2.0: flow "accessCode". Other flows need no user consent or no token URL.
    const code = s.flows?.authorizationCode ?? (s.flow === 'accessCode' ? s : undefined);
    if (!code)
      return `OAuth 2.0 without the authorization code flow is not supported (${Object.keys(s.flows ?? {}).join(', ') || s.flow})`;
    const authorizeUrl = absoluteUrl(code.authorizationUrl, baseUrl);
    const tokenUrl = absoluteUrl(code.tokenUrl, baseUrl);
    if (!authorizeUrl || !tokenUrl) return 'OAuth 2.0 needs an authorization URL and a token URL';
    return {
      type: 'oauth2',
      authorizeUrl,
      tokenUrl,
      scopes: Object.keys(code.scopes ?? {}).slice(0, 100),
      pkce: false,
    };
  }
  return `"${type}" security schemes are not supported`;
}

/**
 * The document's auth: the first scheme of the first requirement that maps (top-level `security` first,
 * then the declared schemes in order). Others are named in a warning; none mapping means `none`.
 */
export function documentAuth(doc: ApiDocument, baseUrl: string, warnings: ImportWarning[]): Auth {
  const schemes: Record<string, Record<string, any>> = doc.components?.securitySchemes ??
  doc.securityDefinitions ??
  {};
  const required = (Array.isArray(doc.security) ? doc.security : []).flatMap((r: object) =>
    Object.keys(r ?? {}),
  );
  const order = [...new Set([...required, ...Object.keys(schemes)])].filter((n) => schemes[n]);
  let chosen: Auth | undefined;
  let chosenName = '';
  for (const name of order) {
    const auth = toAuth(schemes[name]!, baseUrl);
    if (typeof auth === 'string')
      warnings.push({ message: `Security scheme "${name}" was dropped: ${auth}` });
    else if (!chosen) {
      chosen = auth;
      chosenName = name;
    } else
      warnings.push({
        message: `Security scheme "${name}" was not used: a connector has one auth, "${chosenName}" was taken`,
      });
  }
  if (!chosen && order.length)
    warnings.push({ message: 'No security scheme could be mapped: the draft has no auth ("none")' });
  return chosen ?? { type: 'none' };
}
