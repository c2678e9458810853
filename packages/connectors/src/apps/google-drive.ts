import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { driveFileSource, driveString, googleOAuth } from './google.ts';
import { bodyLabel, path } from './helpers.ts';

const FOLDER = 'application/vnd.google-apps.folder';
const FILE_FIELDS = 'id, name, mimeType, webViewLink, parents, modifiedTime, size';

const fileId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{10,}$/, 'must be a Drive file id (the long part of its URL)')
  .describe('File or folder id');
const folderId = z
  .string()
  .regex(/^([A-Za-z0-9_-]{10,}|root)$/, 'must be a folder id or "root"')
  .describe('Folder id (folders option source), or "root" for My Drive');

interface File {
  id: string;
  name: string;
  mimeType: string;
  webViewLink?: string;
  parents?: string[];
  modifiedTime?: string;
  size?: string;
}

const file = (f: File) => ({
  id: f.id,
  name: f.name,
  mimeType: f.mimeType,
  url: f.webViewLink ?? null,
  parents: f.parents ?? [],
  modifiedTime: f.modifiedTime ?? null,
  size: f.size === undefined ? null : Number(f.size),
});
const fileOutput = (res: HttpResponse) => file(res.body as File);

/** Google Drive API v3: https://developers.google.com/drive/api/reference/rest/v3 */
export const googleDrive: ConnectorDefinition = {
  id: 'google-drive',
  name: 'Google Drive',
  description: 'Create folders, find, copy and share files in Google Drive, shared drives included.',
  category: 'productivity',
  icon: 'googledrive',
  color: '4285F4',
  docs: 'https://developers.google.com/drive/api/reference/rest/v3/files',
  baseUrl: 'https://www.googleapis.com/drive/v3',
  auth: { ...googleOAuth, scopes: ['https://www.googleapis.com/auth/drive'] },
  test: {
    request: () => ({ method: 'GET', path: '/about', query: { fields: 'user(displayName,emailAddress)' } }),
    accountLabel: bodyLabel('user.emailAddress', 'user.displayName'),
  },
  actions: [
    defineAction({
      id: 'create_folder',
      name: 'Create a folder',
      description: 'Creates a folder, in My Drive or inside another folder (POST /files).',
      kind: 'write',
      input: z.object({
        name: z.string().min(1).max(255).describe('Folder name'),
        parentId: folderId
          .optional()
          .describe('Folder to create it in (folders option source); My Drive when omitted'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/files',
        query: { supportsAllDrives: true, fields: FILE_FIELDS },
        body: { name: input.name, mimeType: FOLDER, ...(input.parentId && { parents: [input.parentId] }) },
      }),
      output: fileOutput,
    }),
    defineAction({
      id: 'find_files',
      name: 'Find files',
      description: 'Searches files and folders by name, folder and type, newest first (GET /files).',
      kind: 'read',
      input: z.object({
        nameContains: z.string().max(255).optional().describe('Part of the file name'),
        folderId: folderId.optional().describe('Only files directly in this folder (folders option source)'),
        mimeType: z
          .string()
          .max(255)
          .optional()
          .describe('Only this type, e.g. application/pdf or application/vnd.google-apps.document'),
        query: z
          .string()
          .max(2000)
          .optional()
          .describe("More Drive query terms, ANDed, e.g. modifiedTime > '2025-01-01T00:00:00'"),
        pageSize: z.number().int().min(1).max(1000).default(50).describe('Page size'),
        pageToken: z.string().optional().describe('nextPageToken of a previous call'),
      }),
      request: (input) => ({
        method: 'GET',
        path: '/files',
        query: {
          q: [
            'trashed = false',
            input.nameContains && `name contains ${driveString(input.nameContains)}`,
            input.folderId && `${driveString(input.folderId)} in parents`,
            input.mimeType && `mimeType = ${driveString(input.mimeType)}`,
            input.query && `(${input.query})`,
          ]
            .filter(Boolean)
            .join(' and '),
          fields: `nextPageToken, files(${FILE_FIELDS})`,
          orderBy: 'modifiedTime desc',
          pageSize: input.pageSize,
          pageToken: input.pageToken,
          includeItemsFromAllDrives: true,
          supportsAllDrives: true,
        },
      }),
      output: (res) => {
        const b = res.body as { files?: File[]; nextPageToken?: string };
        return { files: (b.files ?? []).map(file), nextPageToken: b.nextPageToken ?? null };
      },
    }),
    defineAction({
      id: 'copy_file',
      name: 'Copy a file',
      description: 'Copies a file, e.g. a template document, under a new name (POST /files/{fileId}/copy).',
      kind: 'write',
      input: z.object({
        fileId,
        name: z.string().min(1).max(255).optional().describe('Name of the copy; "Copy of …" when omitted'),
        parentId: folderId.optional().describe('Folder of the copy (folders option source)'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/files/${input.fileId}/copy`,
        query: { supportsAllDrives: true, fields: FILE_FIELDS },
        body: { name: input.name, ...(input.parentId && { parents: [input.parentId] }) },
      }),
      output: fileOutput,
    }),
    defineAction({
      id: 'share_file',
      name: 'Share a file',
      description:
        'Gives a person, group, domain or anyone with the link access to a file or folder (POST /files/{fileId}/permissions).',
      kind: 'write',
      input: z
        .object({
          fileId,
          role: z.enum(['reader', 'commenter', 'writer']).describe('Access level'),
          type: z.enum(['user', 'group', 'domain', 'anyone']).default('user').describe('Who gets access'),
          emailAddress: z.email().optional().describe('Person or group address (type user or group)'),
          domain: z.string().max(253).optional().describe('Domain, e.g. acme.com (type domain)'),
          notify: z.boolean().default(true).describe('Email the person or group about the share'),
          message: z.string().max(2000).optional().describe('Text added to the notification email'),
        })
        .refine((i) => !['user', 'group'].includes(i.type) || i.emailAddress, {
          message: 'emailAddress is required for type user or group',
          path: ['emailAddress'],
        })
        .refine((i) => i.type !== 'domain' || i.domain, {
          message: 'domain is required for type domain',
          path: ['domain'],
        }),
      request: (input) => {
        const personal = input.type === 'user' || input.type === 'group';
        return {
          method: 'POST',
          path: path`/files/${input.fileId}/permissions`,
          query: {
            supportsAllDrives: true,
            ...(personal && { sendNotificationEmail: input.notify }),
            ...(personal && input.notify && input.message && { emailMessage: input.message }),
          },
          body: {
            role: input.role,
            type: input.type,
            ...(personal && { emailAddress: input.emailAddress }),
            ...(input.type === 'domain' && { domain: input.domain }),
          },
        };
      },
      output: (res) => {
        const p = res.body as { id: string; role: string; type: string };
        return { permissionId: p.id, role: p.role, type: p.type };
      },
    }),
  ],
  sources: {
    folders: driveFileSource({ description: 'Folders, most recently changed first', mimeType: FOLDER }),
  },
};
