import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, joinMessages, path, withQuery } from './helpers.ts';

const issueKey = z
  .string()
  .regex(/^([A-Z][A-Z0-9_]*-\d+|\d+)$/, 'must be an issue key such as ENG-42 or a numeric id')
  .describe('Issue key (ENG-42) or id');

type AdfNode = { type: string; text?: string; content?: AdfNode[] };

/** Plain text as an Atlassian Document Format doc: one paragraph per line (API v3 takes no plain strings). */
export const toAdf = (text: string): AdfNode & { version: 1 } => ({
  type: 'doc',
  version: 1,
  content: text.split(/\r?\n/).map((line) => ({
    type: 'paragraph',
    content: line ? [{ type: 'text', text: line }] : [],
  })),
});

/** The text of an ADF document, paragraphs on their own lines. */
export function fromAdf(node: AdfNode | null | undefined): string {
  if (!node) return '';
  if (node.type === 'text') return node.text ?? '';
  if (node.type === 'hardBreak') return '\n';
  const inner = (node.content ?? []).map(fromAdf);
  return node.type === 'doc' || node.type.endsWith('List') ? inner.join('\n') : inner.join('');
}

interface JiraIssue {
  id: string;
  key: string;
  fields: {
    summary?: string;
    status?: { name: string };
    assignee?: { accountId: string; displayName: string } | null;
    reporter?: { accountId: string; displayName: string } | null;
    issuetype?: { name: string };
    priority?: { name: string } | null;
    labels?: string[];
    description?: AdfNode | null;
    created?: string;
    updated?: string;
  };
}

const FIELDS = 'summary,status,assignee,reporter,issuetype,priority,labels,description,created,updated';

const issue = (i: JiraIssue) => ({
  id: i.id,
  key: i.key,
  summary: i.fields.summary,
  status: i.fields.status?.name,
  issueType: i.fields.issuetype?.name,
  priority: i.fields.priority?.name ?? null,
  assignee: i.fields.assignee
    ? { accountId: i.fields.assignee.accountId, name: i.fields.assignee.displayName }
    : null,
  reporter: i.fields.reporter
    ? { accountId: i.fields.reporter.accountId, name: i.fields.reporter.displayName }
    : null,
  labels: i.fields.labels ?? [],
  description: i.fields.description ? fromAdf(i.fields.description) : null,
  created: i.fields.created,
  updated: i.fields.updated,
});

/** Jira's JQL time format, in UTC ("yyyy-MM-dd HH:mm"): coarse, so the seen-set drops the overlap. */
const jqlTime = (iso: string) => iso.slice(0, 16).replace('T', ' ');

/** https://developer.atlassian.com/cloud/jira/platform/rest/v3/api-group-issue-search/: newest first. */
const newIssue = definePollTrigger({
  id: 'new_issue',
  name: 'New issue',
  description: 'An issue is created in a project (polls GET /search/jql).',
  input: z.object({
    project: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]+$/)
      .describe('Project key, e.g. ENG'),
  }),
  request: (input, _settings, since) => ({
    method: 'GET',
    path: '/search/jql',
    query: {
      jql: `project = "${input.project}"${typeof since === 'string' ? ` AND created >= "${jqlTime(new Date(since).toISOString())}"` : ''} ORDER BY created DESC`,
      maxResults: 100,
      fields: FIELDS,
    },
  }),
  items: (body) => (body as { issues: JiraIssue[] }).issues,
  itemId: (i: JiraIssue) => i.id,
  itemPosition: (i: JiraIssue) => (i.fields.created ? new Date(i.fields.created).toISOString() : undefined),
  output: issue,
  paging: {
    next: (res, req) => {
      const token = (res.body as { nextPageToken?: string }).nextPageToken;
      return token ? withQuery(req, { nextPageToken: token }) : undefined;
    },
  },
});

/** Jira Cloud REST API v3: https://developer.atlassian.com/cloud/jira/platform/rest/v3/ */
export const jira: ConnectorDefinition = {
  id: 'jira',
  name: 'Jira',
  description: 'Create, comment on and search Jira Cloud issues.',
  category: 'project-management',
  icon: 'jira',
  color: '0052CC',
  docs: 'https://developer.atlassian.com/cloud/jira/platform/rest/v3/',
  baseUrl: 'https://{site}.atlassian.net/rest/api/3',
  auth: {
    type: 'basic',
    username: '{email}',
    password: '{apiToken}',
    fields: [
      {
        name: 'site',
        label: 'Site',
        type: 'text',
        required: true,
        secret: false,
        placeholder: 'acme',
        help: 'The part before .atlassian.net',
      },
      { name: 'email', label: 'Account email', type: 'text', required: true, secret: false },
      {
        name: 'apiToken',
        label: 'API token',
        type: 'password',
        required: true,
        secret: true,
        help: 'Create one at https://id.atlassian.com/manage-profile/security/api-tokens',
      },
    ],
  },
  test: {
    request: () => ({ method: 'GET', path: '/myself' }),
    accountLabel: bodyLabel('emailAddress', 'displayName'),
  },
  // {"errorMessages": [...], "errors": {"summary": "You must specify a summary of the issue."}}
  errorMessage: (res) => {
    const b = res.body as { errorMessages?: string[]; errors?: Record<string, string> } | null;
    if (!b || typeof b !== 'object' || Array.isArray(b)) return undefined;
    return joinMessages([
      ...(b.errorMessages ?? []),
      ...Object.entries(b.errors ?? {}).map(([field, msg]) => `${field}: ${msg}`),
    ]);
  },
  triggers: [newIssue],
  actions: [
    defineAction({
      id: 'create_issue',
      name: 'Create an issue',
      description: 'Creates an issue in a project (POST /issue).',
      kind: 'write',
      input: z.object({
        project: z
          .string()
          .regex(/^[A-Z][A-Z0-9_]+$/)
          .describe('Project key, e.g. ENG (projects option source)'),
        issueType: z.string().min(1).default('Task').describe('Issue type name, e.g. Task, Bug, Story'),
        summary: z.string().min(1).max(255).describe('One-line summary'),
        description: z.string().max(32_000).optional().describe('Plain text; line breaks are kept'),
        labels: z
          .array(z.string().regex(/^\S+$/, 'labels cannot contain spaces'))
          .optional()
          .describe('Labels'),
        assigneeAccountId: z.string().optional().describe('Atlassian account id of the assignee'),
        priority: z.string().optional().describe('Priority name, e.g. High'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/issue',
        body: {
          fields: {
            project: { key: input.project },
            issuetype: { name: input.issueType },
            summary: input.summary,
            ...(input.description !== undefined && { description: toAdf(input.description) }),
            ...(input.labels && { labels: input.labels }),
            ...(input.assigneeAccountId && { assignee: { accountId: input.assigneeAccountId } }),
            ...(input.priority && { priority: { name: input.priority } }),
          },
        },
      }),
      output: (res) => {
        const b = res.body as { id: string; key: string };
        return { id: b.id, key: b.key };
      },
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on an issue',
      description: 'Adds a comment to an issue (POST /issue/{key}/comment).',
      kind: 'write',
      input: z.object({
        issue: issueKey,
        body: z.string().min(1).max(32_000).describe('Comment, plain text'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/issue/${input.issue}/comment`,
        body: { body: toAdf(input.body) },
      }),
      output: (res) => {
        const c = res.body as { id: string; created: string; author?: { displayName: string } };
        return { id: c.id, created: c.created, author: c.author?.displayName };
      },
    }),
    defineAction({
      id: 'get_issue',
      name: 'Get an issue',
      description: 'Reads an issue with its status, people and description as text (GET /issue/{key}).',
      kind: 'read',
      input: z.object({ issue: issueKey }),
      request: (input) => ({ method: 'GET', path: path`/issue/${input.issue}`, query: { fields: FIELDS } }),
      output: (res) => issue(res.body as JiraIssue),
    }),
    defineAction({
      id: 'search_issues',
      name: 'Search issues',
      description: 'Finds issues with JQL (GET /search/jql); returns one page and the token of the next.',
      kind: 'read',
      input: z.object({
        jql: z.string().min(1).max(10_000).describe('JQL, e.g. project = ENG AND status = "In Progress"'),
        maxResults: z.number().int().min(1).max(100).default(50).describe('Page size'),
        nextPageToken: z.string().optional().describe('Token from a previous page'),
      }),
      request: (input) => ({
        method: 'GET',
        path: '/search/jql',
        query: {
          jql: input.jql,
          maxResults: input.maxResults,
          fields: FIELDS,
          nextPageToken: input.nextPageToken,
        },
      }),
      output: (res) => {
        const b = res.body as { issues: JiraIssue[]; nextPageToken?: string };
        return { issues: b.issues.map(issue), nextPageToken: b.nextPageToken ?? null };
      },
    }),
  ],
  sources: {
    projects: {
      description: 'Projects',
      request: (_settings, search) => ({
        method: 'GET',
        path: '/project/search',
        query: { startAt: 0, maxResults: 50, orderBy: 'name', query: search },
      }),
      items: (body) => (body as { values?: unknown[] }).values ?? [],
      option: (p: { key: string; name: string }) => ({ value: p.key, label: `${p.name} (${p.key})` }),
      paging: {
        next: (res, req) => {
          const b = res.body as { isLast?: boolean; startAt: number; values: unknown[] };
          return b.isLast || b.values.length === 0
            ? undefined
            : withQuery(req, { startAt: b.startAt + b.values.length });
        },
      },
    },
  },
};
