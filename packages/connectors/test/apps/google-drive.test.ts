import { bearer, connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { ConnectorRuntime, catalog } from '../../src/index.ts';

const token = 'ya29.a0AfB_byDr1v3-3vZ4jP0lN6uS9xR2aY5dW8cO1nM4lK7iH0gE3tB6rQ9';
const FIELDS = 'id, name, mimeType, webViewLink, parents, modifiedTime, size';
const folder = '1AbCdEfGhIjKlMnOpQrStUvWxYz012345';
const doc = '1ZyXwVuTsRqPoNmLkJiHgFeDcBa987654';

const driveFile = {
  id: doc,
  name: 'Proposal – Acme',
  mimeType: 'application/vnd.google-apps.document',
  webViewLink: `https://docs.google.com/document/d/${doc}/edit`,
  parents: [folder],
  modifiedTime: '2025-02-01T10:00:00.000Z',
};
const mappedFile = {
  id: doc,
  name: 'Proposal – Acme',
  mimeType: 'application/vnd.google-apps.document',
  url: `https://docs.google.com/document/d/${doc}/edit`,
  parents: [folder],
  modifiedTime: '2025-02-01T10:00:00.000Z',
  size: null,
};
const folderQuery = {
  q: "mimeType = 'application/vnd.google-apps.folder' and trashed = false",
  fields: 'nextPageToken, files(id, name)',
  orderBy: 'modifiedTime desc',
  pageSize: '100',
  includeItemsFromAllDrives: 'true',
  supportsAllDrives: 'true',
};

connectorSuite({
  id: 'google-drive',
  ...bearer(token),
  test: {
    request: { method: 'GET', path: '/about', query: { fields: 'user(displayName,emailAddress)' } },
    ok: { body: { user: { displayName: 'Grace Hopper', emailAddress: 'grace@acme.test' } } },
    rejected: {
      status: 401,
      body: { error: { code: 401, message: 'Invalid Credentials', status: 'UNAUTHENTICATED' } },
    },
    label: 'grace@acme.test',
    reason: '401: Invalid Credentials',
  },
  actions: [
    {
      name: 'creates a folder inside another one',
      action: 'create_folder',
      input: { name: 'Acme', parentId: folder },
      reply: {
        body: {
          id: '1NewFolder0123456789',
          name: 'Acme',
          mimeType: 'application/vnd.google-apps.folder',
          webViewLink: 'https://drive.google.com/drive/folders/1NewFolder0123456789',
          parents: [folder],
        },
      },
      request: {
        method: 'POST',
        path: '/files',
        query: { supportsAllDrives: 'true', fields: FIELDS },
        body: { name: 'Acme', mimeType: 'application/vnd.google-apps.folder', parents: [folder] },
      },
      output: {
        id: '1NewFolder0123456789',
        name: 'Acme',
        mimeType: 'application/vnd.google-apps.folder',
        url: 'https://drive.google.com/drive/folders/1NewFolder0123456789',
        parents: [folder],
        modifiedTime: null,
        size: null,
      },
    },
    {
      name: 'builds one Drive query from name, folder, type and extra terms, quoting values',
      action: 'find_files',
      input: {
        nameContains: "Acme's",
        folderId: folder,
        mimeType: 'application/pdf',
        query: "modifiedTime > '2025-01-01T00:00:00'",
        pageSize: 10,
      },
      reply: {
        body: {
          files: [{ ...driveFile, mimeType: 'application/pdf', size: '52311' }],
          nextPageToken: 'next-1',
        },
      },
      request: {
        method: 'GET',
        path: '/files',
        query: {
          q: `trashed = false and name contains 'Acme\\'s' and '${folder}' in parents and mimeType = 'application/pdf' and (modifiedTime > '2025-01-01T00:00:00')`,
          fields: `nextPageToken, files(${FIELDS})`,
          orderBy: 'modifiedTime desc',
          pageSize: '10',
          includeItemsFromAllDrives: 'true',
          supportsAllDrives: 'true',
        },
      },
      output: {
        files: [{ ...mappedFile, mimeType: 'application/pdf', size: 52311 }],
        nextPageToken: 'next-1',
      },
    },
    {
      name: 'copies a template into a folder under a new name',
      action: 'copy_file',
      input: { fileId: doc, name: 'Proposal – Acme', parentId: folder },
      reply: { body: driveFile },
      request: {
        method: 'POST',
        path: `/files/${doc}/copy`,
        query: { supportsAllDrives: 'true', fields: FIELDS },
        body: { name: 'Proposal – Acme', parents: [folder] },
      },
      output: mappedFile,
    },
    {
      name: 'shares with a person and a notification message',
      action: 'share_file',
      input: { fileId: doc, role: 'writer', emailAddress: 'ada@example.com', message: 'For review' },
      reply: { body: { kind: 'drive#permission', id: '0123456789', type: 'user', role: 'writer' } },
      request: {
        method: 'POST',
        path: `/files/${doc}/permissions`,
        query: { supportsAllDrives: 'true', sendNotificationEmail: 'true', emailMessage: 'For review' },
        body: { role: 'writer', type: 'user', emailAddress: 'ada@example.com' },
      },
      output: { permissionId: '0123456789', role: 'writer', type: 'user' },
    },
  ],
  sources: [
    {
      source: 'folders',
      pages: [
        {
          request: { method: 'GET', path: '/files', query: folderQuery },
          reply: { body: { files: [{ id: folder, name: 'Clients' }], nextPageToken: 'p2' } },
        },
        {
          request: { method: 'GET', path: '/files', query: { ...folderQuery, pageToken: 'p2' } },
          reply: { body: { files: [{ id: '1Other0123456789', name: 'Archive' }] } },
        },
      ],
      options: [
        { value: folder, label: 'Clients' },
        { value: '1Other0123456789', label: 'Archive' },
      ],
    },
  ],
  errors: [
    {
      name: 'a file the user cannot see is a 404 with Google’s message',
      action: 'copy_file',
      input: { fileId: doc },
      reply: {
        status: 404,
        body: { error: { code: 404, message: `File not found: ${doc}.`, errors: [{ reason: 'notFound' }] } },
      },
      message: `404: File not found: ${doc}.`,
    },
  ],
});

describe('google-drive input', () => {
  const runtime = new ConnectorRuntime({ connectors: catalog });

  it('shares with anyone without an email address or a notification', async () => {
    const def = runtime.action('google-drive', 'share_file')!;
    const input = def.input.parse({ fileId: doc, role: 'reader', type: 'anyone' });
    expect(def.request!(input, {})).toEqual({
      method: 'POST',
      path: `/files/${doc}/permissions`,
      query: { supportsAllDrives: true },
      body: { role: 'reader', type: 'anyone' },
    });
  });

  it('needs an email address to share with a person', async () => {
    const err = await runtime
      .execute('google-drive', 'share_file', { fileId: doc, role: 'reader' })
      .catch((e) => e);
    expect(err.code).toBe('invalid_input');
    expect(err.message).toContain('emailAddress: emailAddress is required for type user or group');
  });
});
