import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition } from '../types.ts';
import { bodyLabel, path, withQuery } from './helpers.ts';

const gid = (what: string) =>
  z
    .string()
    .regex(/^\d+$/, `must be a numeric ${what} gid`)
    .describe(`${what[0]!.toUpperCase()}${what.slice(1)} gid`);

const TASK_FIELDS = 'name,notes,completed,due_on,permalink_url,assignee.name,projects.name,workspace.name';

interface Task {
  gid: string;
  name: string;
  notes?: string;
  completed?: boolean;
  due_on?: string | null;
  permalink_url?: string;
  assignee?: { gid: string; name?: string } | null;
  projects?: { gid: string; name?: string }[];
}

const task = (t: Task) => ({
  gid: t.gid,
  name: t.name,
  notes: t.notes ?? '',
  completed: t.completed ?? false,
  dueOn: t.due_on ?? null,
  url: t.permalink_url ?? null,
  assignee: t.assignee ? { gid: t.assignee.gid, name: t.assignee.name ?? null } : null,
  projects: (t.projects ?? []).map((p) => ({ gid: p.gid, name: p.name ?? null })),
});

interface NewTask extends Task {
  created_at: string;
}

/**
 * https://developers.asana.com/reference/gettasks for one project, oldest first; `modified_since` bounds it
 * by the last poll (a new task is modified since).
 */
const newTask = definePollTrigger({
  id: 'new_task',
  name: 'New task',
  description: 'A task is added to a project (polls GET /tasks?project=).',
  input: z.object({ project: gid('project') }),
  order: 'oldest',
  request: (input, _settings, since) => ({
    method: 'GET',
    path: '/tasks',
    query: {
      project: input.project,
      limit: 100,
      opt_fields: `${TASK_FIELDS},created_at`,
      ...(typeof since === 'string' && { modified_since: since }),
    },
  }),
  items: (body) => (body as { data: NewTask[] }).data,
  itemId: (t: NewTask) => t.gid,
  itemPosition: (t: NewTask) => t.created_at,
  output: (t: NewTask) => ({ ...task(t), createdAt: t.created_at }),
  paging: {
    next: (res, req) => {
      const offset = (res.body as { next_page?: { offset?: string } | null }).next_page?.offset;
      return offset ? withQuery(req, { offset }) : undefined;
    },
  },
});

/** Asana REST API: https://developers.asana.com/reference/rest-api-reference */
export const asana: ConnectorDefinition = {
  id: 'asana',
  name: 'Asana',
  description: 'Create Asana tasks, comment on them and read them.',
  category: 'project-management',
  icon: 'asana',
  color: 'F06A6A',
  docs: 'https://developers.asana.com/reference/rest-api-reference',
  baseUrl: 'https://app.asana.com/api/1.0',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://app.asana.com/-/oauth_authorize',
    tokenUrl: 'https://app.asana.com/-/oauth_token',
    scopes: ['tasks:read', 'tasks:write', 'stories:write', 'workspaces:read', 'users:read'],
    pkce: true,
  },
  test: {
    request: () => ({ method: 'GET', path: '/users/me', query: { opt_fields: 'name,email' } }),
    accountLabel: bodyLabel('data.email', 'data.name'),
  },
  triggers: [newTask],
  actions: [
    defineAction({
      id: 'create_task',
      name: 'Create a task',
      description: 'Creates a task in a workspace, optionally in projects (POST /tasks).',
      kind: 'write',
      input: z.object({
        workspace: gid('workspace').describe('Workspace gid (workspaces option source)'),
        projects: z.array(gid('project')).optional().describe('Project gids to add the task to'),
        name: z.string().min(1).max(1024).describe('Task name'),
        notes: z.string().max(65_535).optional().describe('Description, plain text'),
        assignee: z.string().optional().describe('"me", a user gid or an email'),
        due_on: z.iso.date().optional().describe('Due date, YYYY-MM-DD'),
      }),
      request: (input) => ({
        method: 'POST',
        path: '/tasks',
        query: { opt_fields: TASK_FIELDS },
        body: { data: input },
      }),
      output: (res) => task((res.body as { data: Task }).data),
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on a task',
      description: 'Adds a comment to a task (POST /tasks/{gid}/stories).',
      kind: 'write',
      input: z.object({
        task: gid('task'),
        text: z.string().min(1).max(65_535).describe('Comment, plain text'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/tasks/${input.task}/stories`,
        body: { data: { text: input.text } },
      }),
      output: (res) => {
        const s = (res.body as { data: { gid: string; created_at: string; text: string } }).data;
        return { gid: s.gid, createdAt: s.created_at, text: s.text };
      },
    }),
    defineAction({
      id: 'get_task',
      name: 'Get a task',
      description: 'Reads a task (GET /tasks/{gid}).',
      kind: 'read',
      input: z.object({ task: gid('task') }),
      request: (input) => ({
        method: 'GET',
        path: path`/tasks/${input.task}`,
        query: { opt_fields: TASK_FIELDS },
      }),
      output: (res) => task((res.body as { data: Task }).data),
    }),
  ],
  sources: {
    workspaces: {
      description: 'Workspaces and organizations',
      request: () => ({ method: 'GET', path: '/workspaces', query: { limit: 100 } }),
      items: (body) => (body as { data?: unknown[] }).data ?? [],
      option: (w: { gid: string; name: string }) => ({ value: w.gid, label: w.name }),
      paging: {
        next: (res, req) => {
          const offset = (res.body as { next_page?: { offset?: string } | null }).next_page?.offset;
          return offset ? withQuery(req, { offset }) : undefined;
        },
      },
    },
  },
};
