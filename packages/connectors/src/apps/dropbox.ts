import { z } from 'zod';
import { defineAction } from '../define.ts';
import { ConnectorError } from '../errors.ts';
import type { ConnectorDefinition, HttpRequestSpec, HttpResponse } from '../types.ts';
import { bodyLabel } from './helpers.ts';

/** Paths start with "/" (root is ""), or are an `id:` reference; Dropbox rejects a trailing slash. */
const dropboxPath = (what: string) =>
  z
    .string()
    .max(4096)
    .regex(/^(|\/.*[^/]|id:[A-Za-z0-9_-]+)$/, 'must start with "/" and not end with one, or be id:…')
    .describe(what);

interface Metadata {
  '.tag': 'file' | 'folder' | 'deleted';
  id?: string;
  name: string;
  path_display?: string;
  path_lower?: string;
  client_modified?: string;
  server_modified?: string;
  size?: number;
}

const entry = (m: Metadata) => ({
  type: m['.tag'],
  id: m.id ?? null,
  name: m.name,
  path: m.path_display ?? null,
  modifiedAt: m.server_modified ?? null,
  size: m.size ?? null,
});

/** `has_more` lists continue at `…/continue` with the cursor alone. */
const continueWith =
  (path: string) =>
  (res: HttpResponse): HttpRequestSpec | undefined => {
    const b = res.body as { has_more?: boolean; cursor?: string };
    return b.has_more && b.cursor ? { method: 'POST', path, body: { cursor: b.cursor } } : undefined;
  };

/** RPC errors carry a machine-readable `error_summary` such as "path/not_found/.."; the dots are padding. */
const errorSummary = (res: HttpResponse) => {
  const summary = (res.body as { error_summary?: string } | null)?.error_summary;
  return typeof summary === 'string' ? summary.replace(/\/\.*$/, '') : undefined;
};

/** Dropbox API v2 (RPC endpoints): https://www.dropbox.com/developers/documentation/http/documentation */
export const dropbox: ConnectorDefinition = {
  id: 'dropbox',
  name: 'Dropbox',
  description: 'Create folders, list and search files, and share links in Dropbox.',
  category: 'productivity',
  icon: 'dropbox',
  color: '0061FF',
  docs: 'https://www.dropbox.com/developers/documentation/http/documentation',
  baseUrl: 'https://api.dropboxapi.com/2',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://www.dropbox.com/oauth2/authorize',
    tokenUrl: 'https://api.dropboxapi.com/oauth2/token',
    scopes: [
      'account_info.read',
      'files.metadata.read',
      'files.content.write',
      'sharing.read',
      'sharing.write',
    ],
    pkce: true,
    // Short-lived tokens only come with a refresh token when offline access is asked for.
    authorizeParams: { token_access_type: 'offline' },
  },
  // A no-argument RPC call: POST without a body.
  test: {
    request: () => ({ method: 'POST', path: '/users/get_current_account' }),
    accountLabel: bodyLabel('email', 'name.display_name'),
  },
  errorMessage: errorSummary,
  actions: [
    defineAction({
      id: 'create_folder',
      name: 'Create a folder',
      description: 'Creates a folder at a path (POST /files/create_folder_v2).',
      kind: 'write',
      input: z.object({
        path: dropboxPath('Folder path, e.g. /Clients/Acme').refine((p) => p !== '', 'cannot be the root'),
        autorename: z
          .boolean()
          .default(false)
          .describe('Pick a free name such as "Acme (1)" if the path is taken'),
      }),
      request: (input) => ({ method: 'POST', path: '/files/create_folder_v2', body: input }),
      output: (res) => entry({ ...(res.body as { metadata: Metadata }).metadata, '.tag': 'folder' }),
    }),
    defineAction({
      id: 'list_folder',
      name: 'List a folder',
      description:
        'Lists the files and folders in a folder (POST /files/list_folder); pass the cursor to go on.',
      kind: 'read',
      input: z.object({
        path: dropboxPath('Folder path (folders option source); "" for the root').default(''),
        recursive: z.boolean().default(false).describe('Include everything below the folder'),
        limit: z.number().int().min(1).max(2000).default(100).describe('Entries per page (approximate)'),
        cursor: z
          .string()
          .optional()
          .describe('Cursor of a previous call with hasMore; the other fields are then ignored'),
      }),
      request: ({ cursor, ...input }) =>
        cursor
          ? { method: 'POST', path: '/files/list_folder/continue', body: { cursor } }
          : { method: 'POST', path: '/files/list_folder', body: input },
      output: (res) => {
        const b = res.body as { entries: Metadata[]; cursor: string; has_more: boolean };
        return { entries: b.entries.map(entry), cursor: b.cursor, hasMore: b.has_more };
      },
    }),
    defineAction({
      id: 'search',
      name: 'Search files',
      description: 'Finds files and folders by name and content (POST /files/search_v2).',
      kind: 'read',
      input: z.object({
        query: z.string().min(1).max(1000).describe('Search text'),
        path: dropboxPath('Only below this folder (folders option source)').optional(),
        filenameOnly: z.boolean().default(false).describe('Match file names only, not contents'),
        fileExtensions: z
          .array(z.string().regex(/^[A-Za-z0-9]+$/))
          .optional()
          .describe('Only these extensions, e.g. ["pdf","docx"]'),
        maxResults: z.number().int().min(1).max(1000).default(100).describe('How many matches'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/files/search_v2',
        body: {
          query: input.query,
          options: {
            path: input.path,
            max_results: input.maxResults,
            file_status: 'active',
            filename_only: input.filenameOnly,
            file_extensions: input.fileExtensions,
          },
        },
      }),
      output: (res) => {
        const b = res.body as { matches: { metadata: { metadata: Metadata } }[]; has_more: boolean };
        return { matches: b.matches.map((m) => entry(m.metadata.metadata)), hasMore: b.has_more };
      },
    }),
    defineAction({
      id: 'create_shared_link',
      name: 'Share a link',
      description:
        'Creates a shared link to a file or folder (POST /sharing/create_shared_link_with_settings); an existing link is returned instead of failing.',
      kind: 'write',
      input: z.object({
        path: dropboxPath('File or folder path, e.g. /Reports/q1.pdf').refine(
          (p) => p !== '',
          'cannot be the root',
        ),
        audience: z
          .enum(['public', 'team', 'no_one'])
          .optional()
          .describe('Who may open it; no_one means only people already given access'),
        expires: z.iso.datetime().optional().describe('Expiry, ISO 8601 (paid plans)'),
      }),
      handler: async (input, ctx) => {
        const link = (b: { url: string; name: string; path_lower?: string; expires?: string }) => ({
          url: b.url,
          name: b.name,
          path: b.path_lower ?? null,
          expires: b.expires ?? null,
        });
        const settings = {
          ...(input.audience && { audience: input.audience }),
          ...(input.expires && { expires: input.expires.replace(/\.\d+/, '') }),
        };
        try {
          const res = await ctx.http({
            method: 'POST',
            path: '/sharing/create_shared_link_with_settings',
            body: { path: input.path, ...(Object.keys(settings).length > 0 && { settings }) },
          });
          return link(res.body as { url: string; name: string });
        } catch (err) {
          // A path can have one link per settings; Dropbox names the existing one in the 409.
          const existing = (
            (err as ConnectorError).body as {
              error?: { shared_link_already_exists?: { metadata?: { url: string; name: string } } };
            }
          )?.error?.shared_link_already_exists?.metadata;
          if (err instanceof ConnectorError && err.statusCode === 409 && existing) return link(existing);
          throw err;
        }
      },
    }),
  ],
  sources: {
    folders: {
      description: 'All folders, by path',
      request: () => ({
        method: 'POST',
        path: '/files/list_folder',
        body: { path: '', recursive: true, include_deleted: false, limit: 2000 },
      }),
      items: (body) =>
        ((body as { entries?: Metadata[] }).entries ?? []).filter((e) => e['.tag'] === 'folder'),
      option: (f: Metadata) => ({
        value: f.path_display ?? f.path_lower ?? '',
        label: f.path_display ?? f.name,
      }),
      paging: { next: continueWith('/files/list_folder/continue') },
    },
  },
};
