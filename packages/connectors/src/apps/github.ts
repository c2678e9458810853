import { z } from 'zod';
import { defineAction, definePollTrigger, defineWebhookTrigger } from '../define.ts';
import { signatureVerifiers } from '../triggers/signatures.ts';
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

interface Pull {
  id: number;
  number: number;
  title: string;
  state: string;
  html_url: string;
  body?: string | null;
  draft?: boolean;
  user?: { login: string };
  head?: { ref: string };
  base?: { ref: string };
  created_at: string;
}
const pull = (p: Pull) => ({
  id: p.id,
  number: p.number,
  title: p.title,
  state: p.state,
  url: p.html_url,
  body: p.body ?? null,
  draft: p.draft ?? false,
  author: p.user?.login,
  head: p.head?.ref,
  base: p.base?.ref,
  createdAt: p.created_at,
});

/** A trigger's repository: `owner` and `repo` (or `repo` as "owner/name"). */
const repoTriggerInput = z.object(repoInput).refine(hasOwner, ownerMessage);
const byCreated = { state: 'all', sort: 'created', direction: 'desc', per_page: 100 };
const common = {
  input: repoTriggerInput,
  itemId: (i: { id: number }) => String(i.id),
  itemPosition: (i: { created_at: string }) => i.created_at,
};

/** https://docs.github.com/en/rest/issues/issues#list-repository-issues (pull requests filtered out) */
const newIssue = definePollTrigger({
  ...common,
  id: 'new_issue',
  name: 'New issue',
  description: 'An issue is opened in a repository (polls GET /repos/{owner}/{repo}/issues).',
  request: (input) => ({ method: 'GET', path: `${repoPath(input)}/issues`, query: byCreated }),
  items: (body) => (body as Issue[]).filter((i) => !i.pull_request),
  output: issue,
  paging: { next: linkHeaderNext },
});

/** https://docs.github.com/en/rest/pulls/pulls#list-pull-requests */
const newPullRequest = definePollTrigger({
  ...common,
  id: 'new_pull_request',
  name: 'New pull request',
  description: 'A pull request is opened in a repository (polls GET /repos/{owner}/{repo}/pulls).',
  request: (input) => ({ method: 'GET', path: `${repoPath(input)}/pulls`, query: byCreated }),
  items: (body) => body as Pull[],
  output: pull,
  paging: { next: linkHeaderNext },
});

/**
 * A repository webhook (https://docs.github.com/en/rest/repos/webhooks#create-a-repository-webhook) for one
 * event; GitHub signs each delivery with the secret given here (`X-Hub-Signature-256`).
 */
const repoHook = (event: 'issues' | 'pull_request', pick: (body: any) => unknown) => ({
  input: repoTriggerInput,
  subscribe: (input: z.output<typeof repoTriggerInput>, hook: { url: string; secret: string }) => ({
    method: 'POST' as const,
    path: `${repoPath(input)}/hooks`,
    body: {
      name: 'web',
      active: true,
      events: [event],
      config: { url: hook.url, content_type: 'json', secret: hook.secret, insecure_ssl: '0' },
    },
  }),
  subscription: (res: HttpResponse) => ({ id: String((res.body as { id: number }).id) }),
  unsubscribe: (input: z.output<typeof repoTriggerInput>, id: string) => ({
    method: 'DELETE' as const,
    path: `${repoPath(input)}${path`/hooks/${id}`}`,
  }),
  verify: signatureVerifiers.github,
  // Only "opened" of the event is new; pings and edits start nothing.
  items: (d: { headers: Record<string, string | undefined>; body: unknown }) => {
    const b = d.body as { action?: string } | null;
    const item = d.headers['x-github-event'] === event && b?.action === 'opened' ? pick(b) : undefined;
    return item ? [item] : [];
  },
  itemId: common.itemId,
  itemPosition: common.itemPosition,
});

const newIssueWebhook = defineWebhookTrigger({
  ...repoHook('issues', (b) => b.issue),
  id: 'new_issue_webhook',
  name: 'New issue (instant)',
  description: 'An issue is opened in a repository (repository webhook, issues event).',
  output: issue,
});

const newPullRequestWebhook = defineWebhookTrigger({
  ...repoHook('pull_request', (b) => b.pull_request),
  id: 'new_pull_request_webhook',
  name: 'New pull request (instant)',
  description: 'A pull request is opened in a repository (repository webhook, pull_request event).',
  output: pull,
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
  triggers: [newIssue, newPullRequest, newIssueWebhook, newPullRequestWebhook],
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
