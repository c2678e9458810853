import type { OptionSource } from '../types.ts';
import { withQuery } from './helpers.ts';

/** Google's OAuth 2.0 endpoints, shared by the Google connectors: https://developers.google.com/identity/protocols/oauth2/web-server */
export const googleOAuth = {
  type: 'oauth2',
  authorizeUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
  tokenUrl: 'https://oauth2.googleapis.com/token',
  pkce: true,
  // Without offline access and a fresh consent Google issues no refresh token.
  authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
} as const;

/** A string literal of the Drive query language: https://developers.google.com/drive/api/guides/ref-search-terms */
export const driveString = (v: string) => `'${v.replace(/[\\']/g, '\\$&')}'`;

/** Google's list pages: `nextPageToken` in the body, `pageToken` in the next request. */
export const nextPageToken = (res: { body: unknown }, req: Parameters<typeof withQuery>[0]) => {
  const token = (res.body as { nextPageToken?: string } | null)?.nextPageToken;
  return token ? withQuery(req, { pageToken: token }) : undefined;
};

/**
 * Drive files of one type (spreadsheets, folders), most recently changed first, across shared drives too.
 * `api` names the Drive host when the connector's base URL is another Google API.
 */
export function driveFileSource(opts: { description: string; mimeType: string; api?: string }): OptionSource {
  return {
    description: opts.description,
    request: (_settings, search) => ({
      ...(opts.api && { api: opts.api }),
      method: 'GET',
      path: '/files',
      query: {
        q: [
          `mimeType = ${driveString(opts.mimeType)}`,
          'trashed = false',
          ...(search ? [`name contains ${driveString(search)}`] : []),
        ].join(' and '),
        fields: 'nextPageToken, files(id, name)',
        orderBy: 'modifiedTime desc',
        pageSize: 100,
        includeItemsFromAllDrives: true,
        supportsAllDrives: true,
      },
    }),
    items: (body) => (body as { files?: unknown[] }).files ?? [],
    option: (f: { id: string; name: string }) => ({ value: f.id, label: f.name }),
    paging: { next: nextPageToken },
  };
}
