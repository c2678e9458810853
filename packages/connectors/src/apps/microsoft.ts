import type { HttpRequestSpec, HttpResponse } from '../types.ts';
import { nextFromUrl } from './helpers.ts';

/**
 * Microsoft identity platform v2.0, for work, school and personal accounts alike (`common`):
 * https://learn.microsoft.com/entra/identity-platform/v2-oauth2-auth-code-flow
 */
export const microsoftOAuth = {
  type: 'oauth2',
  authorizeUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/authorize',
  tokenUrl: 'https://login.microsoftonline.com/common/oauth2/v2.0/token',
  pkce: true,
} as const;

export const GRAPH = 'https://graph.microsoft.com/v1.0';

/** Graph pages with an absolute `@odata.nextLink`; only its query is kept (`$skiptoken`, `$top`, ...). */
export const odataNext = (res: HttpResponse, req: HttpRequestSpec) =>
  nextFromUrl(req, (res.body as { '@odata.nextLink'?: string } | null)?.['@odata.nextLink']);

/** The `value` array of a Graph collection. */
export const odataValue = (body: unknown) => (body as { value?: unknown[] } | null)?.value ?? [];

/** An item body: Graph takes `text` or `html` content. */
export const itemBody = (content: string, html: boolean) => ({
  contentType: html ? 'html' : 'text',
  content,
});
