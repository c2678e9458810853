import { bearer, connectorSuite } from '@inlay/test-kit/suite';

const token = 'sl.u.AFdRopB0x-9xR2aY5dW8cO1nM4lK7iH0gE3tB6rQ9wE2yU5iO8pA1';

const folderMeta = {
  '.tag': 'folder',
  id: 'id:a4ayc_80_OEAAAAAAAAAXw',
  name: 'Acme',
  path_display: '/Clients/Acme',
  path_lower: '/clients/acme',
};
const fileMeta = {
  '.tag': 'file',
  id: 'id:a4ayc_80_OEAAAAAAAAAYa',
  name: 'Q1 report.pdf',
  path_display: '/Clients/Acme/Q1 report.pdf',
  path_lower: '/clients/acme/q1 report.pdf',
  server_modified: '2025-02-01T10:00:00Z',
  size: 7212,
};
const mappedFile = {
  type: 'file',
  id: 'id:a4ayc_80_OEAAAAAAAAAYa',
  name: 'Q1 report.pdf',
  path: '/Clients/Acme/Q1 report.pdf',
  modifiedAt: '2025-02-01T10:00:00Z',
  size: 7212,
};
const link = {
  '.tag': 'file',
  url: 'https://www.dropbox.com/scl/fi/abc123/Q1-report.pdf?rlkey=xyz&dl=0',
  name: 'Q1 report.pdf',
  path_lower: '/clients/acme/q1 report.pdf',
  link_permissions: { can_revoke: true },
};

connectorSuite({
  id: 'dropbox',
  ...bearer(token, 'dbx-refresh'),
  test: {
    request: { method: 'POST', path: '/users/get_current_account' },
    ok: {
      body: { account_id: 'dbid:AAH4f99', name: { display_name: 'Grace Hopper' }, email: 'grace@acme.test' },
    },
    rejected: {
      status: 401,
      body: { error_summary: 'expired_access_token/...', error: { '.tag': 'expired_access_token' } },
    },
    label: 'grace@acme.test',
    reason: '401: expired_access_token',
  },
  actions: [
    {
      name: 'creates a folder and maps its metadata',
      action: 'create_folder',
      input: { path: '/Clients/Acme', autorename: true },
      reply: {
        body: {
          metadata: {
            id: folderMeta.id,
            name: 'Acme',
            path_display: '/Clients/Acme',
            path_lower: '/clients/acme',
          },
        },
      },
      request: {
        method: 'POST',
        path: '/files/create_folder_v2',
        body: { path: '/Clients/Acme', autorename: true },
      },
      output: {
        type: 'folder',
        id: folderMeta.id,
        name: 'Acme',
        path: '/Clients/Acme',
        modifiedAt: null,
        size: null,
      },
    },
    {
      name: 'lists a folder and hands back the cursor',
      action: 'list_folder',
      input: { path: '/Clients/Acme', limit: 50 },
      reply: { body: { entries: [fileMeta], cursor: 'AAFd-cursor', has_more: true } },
      request: {
        method: 'POST',
        path: '/files/list_folder',
        body: { path: '/Clients/Acme', recursive: false, limit: 50 },
      },
      output: { entries: [mappedFile], cursor: 'AAFd-cursor', hasMore: true },
    },
    {
      name: 'continues a listing from its cursor',
      action: 'list_folder',
      input: { cursor: 'AAFd-cursor' },
      reply: { body: { entries: [], cursor: 'AAFd-cursor-2', has_more: false } },
      request: { method: 'POST', path: '/files/list_folder/continue', body: { cursor: 'AAFd-cursor' } },
      output: { entries: [], cursor: 'AAFd-cursor-2', hasMore: false },
    },
    {
      name: 'searches below a folder by extension',
      action: 'search',
      input: { query: 'report', path: '/Clients', fileExtensions: ['pdf'], maxResults: 20 },
      reply: {
        body: {
          matches: [
            { match_type: { '.tag': 'filename' }, metadata: { '.tag': 'metadata', metadata: fileMeta } },
          ],
          has_more: false,
        },
      },
      request: {
        method: 'POST',
        path: '/files/search_v2',
        body: {
          query: 'report',
          options: {
            path: '/Clients',
            max_results: 20,
            file_status: 'active',
            filename_only: false,
            file_extensions: ['pdf'],
          },
        },
      },
      output: { matches: [mappedFile], hasMore: false },
    },
    {
      name: 'creates a shared link with an audience and a whole-second expiry',
      action: 'create_shared_link',
      input: { path: '/Clients/Acme/Q1 report.pdf', audience: 'public', expires: '2025-06-01T00:00:00.000Z' },
      reply: { body: { ...link, expires: '2025-06-01T00:00:00Z' } },
      request: {
        method: 'POST',
        path: '/sharing/create_shared_link_with_settings',
        body: {
          path: '/Clients/Acme/Q1 report.pdf',
          settings: { audience: 'public', expires: '2025-06-01T00:00:00Z' },
        },
      },
      output: {
        url: link.url,
        name: 'Q1 report.pdf',
        path: '/clients/acme/q1 report.pdf',
        expires: '2025-06-01T00:00:00Z',
      },
    },
    {
      name: 'returns the existing link when Dropbox says one exists (409)',
      action: 'create_shared_link',
      input: { path: '/Clients/Acme/Q1 report.pdf' },
      reply: {
        status: 409,
        body: {
          error_summary: 'shared_link_already_exists/metadata/..',
          error: {
            '.tag': 'shared_link_already_exists',
            shared_link_already_exists: { '.tag': 'metadata', metadata: link },
          },
        },
      },
      request: {
        method: 'POST',
        path: '/sharing/create_shared_link_with_settings',
        body: { path: '/Clients/Acme/Q1 report.pdf' },
      },
      output: { url: link.url, name: 'Q1 report.pdf', path: '/clients/acme/q1 report.pdf', expires: null },
    },
  ],
  sources: [
    {
      source: 'folders',
      pages: [
        {
          request: {
            method: 'POST',
            path: '/files/list_folder',
            body: { path: '', recursive: true, include_deleted: false, limit: 2000 },
          },
          reply: {
            body: {
              entries: [
                { ...folderMeta, path_display: '/Clients', name: 'Clients', path_lower: '/clients' },
                folderMeta,
                fileMeta,
              ],
              cursor: 'c1',
              has_more: true,
            },
          },
        },
        {
          request: { method: 'POST', path: '/files/list_folder/continue', body: { cursor: 'c1' } },
          reply: {
            body: {
              entries: [{ ...folderMeta, name: 'Archive', path_display: '/Archive' }],
              cursor: 'c2',
              has_more: false,
            },
          },
        },
      ],
      options: [
        { value: '/Clients', label: '/Clients' },
        { value: '/Clients/Acme', label: '/Clients/Acme' },
        { value: '/Archive', label: '/Archive' },
      ],
    },
  ],
  errors: [
    {
      name: 'a missing path is a 409 with the error summary',
      action: 'list_folder',
      input: { path: '/Nope' },
      reply: {
        status: 409,
        body: {
          error_summary: 'path/not_found/..',
          error: { '.tag': 'path', path: { '.tag': 'not_found' } },
        },
      },
      message: '409: path/not_found',
    },
    {
      name: 'a conflict other than an existing link still fails',
      action: 'create_shared_link',
      input: { path: '/Nope.pdf' },
      reply: {
        status: 409,
        body: {
          error_summary: 'path/not_found/...',
          error: { '.tag': 'path', path: { '.tag': 'not_found' } },
        },
      },
      message: '409: path/not_found',
    },
    {
      name: 'a malformed call keeps Dropbox’s plain-text reason',
      action: 'search',
      input: { query: 'x' },
      reply: {
        status: 400,
        body: 'Error in call to API function "files/search_v2": request body: unknown field',
      },
      message: '400: Error in call to API function "files/search_v2": request body: unknown field',
    },
  ],
});
