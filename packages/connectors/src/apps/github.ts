import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, joinMessages, linkHeaderNext, path } from './helpers.ts';

const NAME = /^[A-Za-z0-9_.-]+$/;

/** `owner` + `repo`, or `repo` as "owner/name" (the value of the repositories option source). */
const repoInput = {
  owner: z.string().regex(NAME).optional().describe('Repository owner (user or organization)'),
  repo: z
    .string()
    .regex(/^([A-Za-z0-9_.-]+\/)?[A-Za-z0-9_.-]+$/)
    .describe('Repository name, or "owner/name" when owner is omitted'),
};
const hasOwner = (i: { owner?: string; repo: string }) => Boolean(i.owner) !== i.repo.includes('/');
const ownerMessage = { message: 'give owner and repo, or repo as "owner/name"', path: ['repo'] };

function repoPath(i: { owner?: string; repo: string }): string {
  const [owner, repo] = i.owner ? [i.owner, i.repo] : (i.repo.split('/') as [string, string]);
  return path`/repos/${owner}/${repo}`;
}

interface Issue {
  id: number;
  number: number;
  title: string;
  state: string;
  html_url: string;
  body?: string | null;
  user?: { login: string };
  labels?: (string | { name: string })[];
  assignees?: { login: string }[];
  created_at: string;
  pull_request?: unknown;
}

const issue = (i: Issue) => ({
  id: i.id,
  number: i.number,
  title: i.title,
  state: i.state,
  url: i.html_url,
  body: i.body ?? null,
  author: i.user?.login,
  labels: (i.labels ?? []).map((l) => (typeof l === 'string' ? l : l.name)),
  assignees: (i.assignees ?? []).map((a) => a.login),
  createdAt: i.created_at,
});

/** GitHub REST API: https://docs.github.com/en/rest */
export const github: ConnectorDefinition = {
  id: 'github',
  name: 'GitHub',
  description: 'Open and comment on issues, and read them, in GitHub repositories.',
  category: 'developer',
  icon: 'github',
  color: '181717',
  docs: 'https://docs.github.com/en/rest/issues/issues',
  baseUrl: 'https://api.github.com',
  headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://github.com/login/oauth/authorize',
    tokenUrl: 'https://github.com/login/oauth/access_token',
    scopes: ['repo', 'read:user'],
    pkce: false,
  },
  test: { request: () => ({ method: 'GET', path: '/user' }), accountLabel: bodyLabel('login') },
  // 422s say "Validation Failed" and put the useful part in `errors`.
  errorMessage: (res: HttpResponse) => {
    const b = res.body as {
      message?: string;
      errors?: ({ message?: string; field?: string; code?: string } | string)[];
    };
    if (!b || typeof b !== 'object' || !b.message) return undefined;
    const details = joinMessages(
      (b.errors ?? []).map((e) =>
        typeof e === 'string'
          ? e
          : (e.message ?? (e.field ? `${e.field} ${e.code ?? 'invalid'}` : undefined)),
      ),
    );
    return details ? `${b.message}: ${details}` : b.message;
  },
  actions: [
    defineAction({
      id: 'create_issue',
      name: 'Create an issue',
      description: 'Opens an issue in a repository (POST /repos/{owner}/{repo}/issues).',
      kind: 'write',
      input: z
        .object({
          ...repoInput,
          title: z.string().min(1).max(256).describe('Issue title'),
          body: z.string().max(65_536).optional().describe('Issue text, Markdown'),
          labels: z.array(z.string().min(1)).optional().describe('Label names; unknown labels are created'),
          assignees: z.array(z.string().regex(NAME)).optional().describe('Logins to assign'),
        })
        .refine(hasOwner, ownerMessage),
      request: ({ owner, repo, ...fields }) => ({
        method: 'POST',
        path: `${repoPath({ owner, repo })}/issues`,
        body: fields,
      }),
      output: (res) => issue(res.body as Issue),
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on an issue',
      description:
        'Adds a comment to an issue or pull request (POST /repos/{owner}/{repo}/issues/{number}/comments).',
      kind: 'write',
      input: z
        .object({
          ...repoInput,
          issue_number: z.number().int().positive().describe('Issue or pull request number'),
          body: z.string().min(1).max(65_536).describe('Comment text, Markdown'),
        })
        .refine(hasOwner, ownerMessage),
      request: (input) => ({
        method: 'POST',
        path: `${repoPath(input)}${path`/issues/${input.issue_number}/comments`}`,
        body: { body: input.body },
      }),
      output: (res) => {
        const c = res.body as { id: number; html_url: string; created_at: string };
        return { id: c.id, url: c.html_url, createdAt: c.created_at };
      },
    }),
    defineAction({
      id: 'list_issues',
      name: 'List issues',
      description:
        'Lists issues of a repository, newest first, without pull requests (GET /repos/{owner}/{repo}/issues).',
      kind: 'read',
      input: z
        .object({
          ...repoInput,
          state: z.enum(['open', 'closed', 'all']).default('open').describe('Issue state'),
          labels: z.array(z.string().min(1)).optional().describe('Only issues with all of these labels'),
          per_page: z.number().int().min(1).max(100).default(30).describe('How many to return'),
        })
        .refine(hasOwner, ownerMessage),
      request: (input) => ({
        method: 'GET',
        path: `${repoPath(input)}/issues`,
        query: { state: input.state, labels: input.labels?.join(','), per_page: input.per_page },
      }),
      output: (res) => (res.body as Issue[]).filter((i) => !i.pull_request).map(issue),
    }),
  ],
  sources: {
    repositories: {
      description: 'Repositories the user can push to',
      request: () => ({
        method: 'GET',
        path: '/user/repos',
        query: { per_page: 100, sort: 'updated', affiliation: 'owner,collaborator,organization_member' },
      }),
      items: (body) =>
        (body as { permissions?: { push?: boolean } }[]).filter((r) => r.permissions?.push !== false),
      option: (r: { full_name: string }) => ({ value: r.full_name, label: r.full_name }),
      paging: { next: linkHeaderNext },
    },
  },
};
