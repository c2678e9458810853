import { z } from 'zod';
import { defineAction } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, path, treeSource } from './helpers.ts';

const taskId = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'must be a task id')
  .describe('Task id, e.g. 86a1b2c3d');
/** ClickUp takes dates as Unix milliseconds. */
const millis = (v?: string) => (v === undefined ? undefined : Date.parse(v));
const date = (what: string) => z.iso.datetime({ offset: true }).describe(`${what}, ISO 8601`);

const taskFields = {
  name: z.string().max(2048).describe('Task name'),
  markdown: z.string().max(100_000).describe('Description, Markdown'),
  status: z.string().max(100).describe('Status name as it appears in the list, e.g. "in progress"'),
  priority: z.number().int().min(1).max(4).describe('1 urgent, 2 high, 3 normal, 4 low'),
  dueDate: date('Due date'),
  startDate: date('Start date'),
};

interface Task {
  id: string;
  custom_id?: string | null;
  name: string;
  text_content?: string | null;
  status?: { status: string };
  priority?: { priority: string } | null;
  assignees?: { id: number; username?: string; email?: string }[];
  tags?: { name: string }[];
  due_date?: string | null;
  start_date?: string | null;
  date_created?: string;
  url: string;
  list?: { id: string; name?: string };
}

const isoOf = (ms?: string | null) => (ms ? new Date(Number(ms)).toISOString() : null);
const task = (t: Task) => ({
  id: t.id,
  customId: t.custom_id ?? null,
  name: t.name,
  text: t.text_content ?? null,
  status: t.status?.status ?? null,
  priority: t.priority?.priority ?? null,
  assignees: (t.assignees ?? []).map((a) => ({
    id: a.id,
    username: a.username ?? null,
    email: a.email ?? null,
  })),
  tags: (t.tags ?? []).map((g) => g.name),
  dueDate: isoOf(t.due_date),
  startDate: isoOf(t.start_date),
  createdAt: isoOf(t.date_created),
  url: t.url,
  listId: t.list?.id ?? null,
});
const taskOutput = (res: HttpResponse) => task(res.body as Task);

interface Named {
  id: string;
  name: string;
}

/** ClickUp API v2: https://developer.clickup.com/reference */
export const clickup: ConnectorDefinition = {
  id: 'clickup',
  name: 'ClickUp',
  description: 'Create, update and read ClickUp tasks, and comment on them.',
  category: 'project-management',
  icon: 'clickup',
  color: '7B68EE',
  docs: 'https://developer.clickup.com/reference/createtask',
  baseUrl: 'https://api.clickup.com/api/v2',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://app.clickup.com/api',
    tokenUrl: 'https://api.clickup.com/api/v2/oauth/token',
    // ClickUp has no scopes: the user picks the Workspaces the app may reach on the consent screen.
    scopes: [],
    pkce: false,
    // The token goes in Authorization as it is, without a scheme.
    tokenHeader: { name: 'Authorization', format: '{accessToken}' },
  },
  test: {
    request: () => ({ method: 'GET', path: '/user' }),
    accountLabel: bodyLabel('user.email', 'user.username'),
  },
  // {"err":"Task not found, deleted","ECODE":"ITEM_013"}
  errorMessage: (res) => {
    const b = res.body as { err?: string; ECODE?: string } | null;
    return b?.err ? (b.ECODE ? `${b.err} (${b.ECODE})` : b.err) : undefined;
  },
  actions: [
    defineAction({
      id: 'create_task',
      name: 'Create a task',
      description: 'Creates a task in a list (POST /list/{listId}/task).',
      kind: 'write',
      input: z.object({
        listId: z.string().regex(/^\d+$/, 'must be a list id').describe('List (lists option source)'),
        name: taskFields.name.min(1),
        markdown: taskFields.markdown.optional(),
        status: taskFields.status.optional(),
        priority: taskFields.priority.optional(),
        assignees: z.array(z.number().int().positive()).max(100).optional().describe('User ids to assign'),
        tags: z.array(z.string().min(1).max(100)).max(50).optional().describe('Tag names'),
        dueDate: taskFields.dueDate.optional(),
        startDate: taskFields.startDate.optional(),
        parent: taskId.optional().describe('Parent task id, to create a subtask'),
        notifyAll: z
          .boolean()
          .default(false)
          .describe('Notify everyone following the list, the creator included'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/list/${input.listId}/task`,
        body: {
          name: input.name,
          markdown_content: input.markdown,
          status: input.status,
          priority: input.priority,
          assignees: input.assignees,
          tags: input.tags,
          due_date: millis(input.dueDate),
          due_date_time: input.dueDate ? true : undefined,
          start_date: millis(input.startDate),
          start_date_time: input.startDate ? true : undefined,
          parent: input.parent,
          notify_all: input.notifyAll,
        },
      }),
      output: taskOutput,
    }),
    defineAction({
      id: 'update_task',
      name: 'Update a task',
      description:
        'Changes the name, description, status, priority, dates or assignees of a task (PUT /task/{taskId}).',
      kind: 'write',
      input: z.object({
        taskId,
        name: taskFields.name.min(1).optional(),
        markdown: taskFields.markdown.optional(),
        status: taskFields.status.optional(),
        priority: taskFields.priority.optional(),
        dueDate: taskFields.dueDate.optional(),
        startDate: taskFields.startDate.optional(),
        addAssignees: z.array(z.number().int().positive()).max(100).optional().describe('User ids to add'),
        removeAssignees: z
          .array(z.number().int().positive())
          .max(100)
          .optional()
          .describe('User ids to remove'),
      }),
      request: (input) => ({
        method: 'PUT',
        path: path`/task/${input.taskId}`,
        body: {
          name: input.name,
          markdown_content: input.markdown,
          status: input.status,
          priority: input.priority,
          due_date: millis(input.dueDate),
          due_date_time: input.dueDate ? true : undefined,
          start_date: millis(input.startDate),
          start_date_time: input.startDate ? true : undefined,
          ...((input.addAssignees || input.removeAssignees) && {
            assignees: { add: input.addAssignees ?? [], rem: input.removeAssignees ?? [] },
          }),
        },
      }),
      output: taskOutput,
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on a task',
      description: 'Adds a comment to a task (POST /task/{taskId}/comment).',
      kind: 'write',
      input: z.object({
        taskId,
        text: z.string().min(1).max(100_000).describe('Comment text'),
        notifyAll: z.boolean().default(false).describe('Notify everyone following the task'),
      }),
      request: (input) => ({
        method: 'POST',
        path: path`/task/${input.taskId}/comment`,
        body: { comment_text: input.text, notify_all: input.notifyAll },
      }),
      output: (res) => {
        const b = res.body as { id: number | string; date: number | string };
        return { id: String(b.id), createdAt: isoOf(String(b.date)) };
      },
    }),
    defineAction({
      id: 'get_task',
      name: 'Get a task',
      description: 'Reads a task (GET /task/{taskId}).',
      kind: 'read',
      input: z.object({ taskId }),
      request: (input) => ({ method: 'GET', path: path`/task/${input.taskId}` }),
      output: taskOutput,
    }),
  ],
  sources: {
    lists: treeSource({
      description: 'Lists of every space of every authorised Workspace',
      // Workspaces ("teams" in API v2) → spaces → lists in folders, and lists outside folders.
      root: {
        request: () => ({ method: 'GET', path: '/team' }),
        items: (body: { teams?: Named[] }) => body.teams ?? [],
        children: [
          {
            request: (team: Named) => ({
              method: 'GET',
              path: path`/team/${team.id}/space`,
              query: { archived: false },
            }),
            items: (body: { spaces?: Named[] }) => body.spaces ?? [],
            children: [
              {
                request: (space: Named) => ({
                  method: 'GET',
                  path: path`/space/${space.id}/folder`,
                  query: { archived: false },
                }),
                items: (body: { folders?: (Named & { lists?: Named[] })[] }) =>
                  (body.folders ?? []).flatMap((f) => (f.lists ?? []).map((l) => ({ ...l, folder: f.name }))),
              },
              {
                request: (space: Named) => ({
                  method: 'GET',
                  path: path`/space/${space.id}/list`,
                  query: { archived: false },
                }),
                items: (body: { lists?: Named[] }) => body.lists ?? [],
              },
            ],
          },
        ],
      },
      option: (l: Named & { folder?: string }, [team, space]: Named[]) => ({
        value: l.id,
        label: [team!.name, space!.name, l.folder, l.name].filter(Boolean).join(' › '),
      }),
    }),
  },
};
