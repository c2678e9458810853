import { connectorSuite } from '@inlay/test-kit/suite';

const token = '81234567_1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2d3e4f5a6b7c8d9e0f1a2b';
const due = Date.parse('2025-03-03T09:00:00Z');

const task = {
  id: '86a1b2c3d',
  custom_id: null,
  name: 'Onboard Acme',
  text_content: 'Kick-off call',
  status: { status: 'to do', type: 'open' },
  priority: { id: '2', priority: 'high' },
  assignees: [{ id: 183, username: 'Grace Hopper', email: 'grace@acme.test' }],
  tags: [{ name: 'customer' }],
  due_date: String(due),
  start_date: null,
  date_created: '1740045600000',
  url: 'https://app.clickup.com/t/86a1b2c3d',
  list: { id: '901234567', name: 'Onboarding' },
};
const mapped = {
  id: '86a1b2c3d',
  customId: null,
  name: 'Onboard Acme',
  text: 'Kick-off call',
  status: 'to do',
  priority: 'high',
  assignees: [{ id: 183, username: 'Grace Hopper', email: 'grace@acme.test' }],
  tags: ['customer'],
  dueDate: '2025-03-03T09:00:00.000Z',
  startDate: null,
  createdAt: '2025-02-20T10:00:00.000Z',
  url: 'https://app.clickup.com/t/86a1b2c3d',
  listId: '901234567',
};

connectorSuite({
  id: 'clickup',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: '81234567_revoked' } },
  // ClickUp takes the token without a scheme.
  auth: { header: 'authorization', value: token },
  test: {
    request: { method: 'GET', path: '/user' },
    ok: { body: { user: { id: 183, username: 'Grace Hopper', email: 'grace@acme.test' } } },
    rejected: { status: 401, body: { err: 'Token invalid', ECODE: 'OAUTH_025' } },
    label: 'grace@acme.test',
    reason: '401: Token invalid (OAUTH_025)',
  },
  actions: [
    {
      name: 'creates a task with Markdown, assignees and a timed due date in milliseconds',
      action: 'create_task',
      input: {
        listId: '901234567',
        name: 'Onboard Acme',
        markdown: 'Kick-off **call**',
        priority: 2,
        assignees: [183],
        tags: ['customer'],
        dueDate: '2025-03-03T09:00:00Z',
      },
      reply: { body: task },
      request: {
        method: 'POST',
        path: '/list/901234567/task',
        body: {
          name: 'Onboard Acme',
          markdown_content: 'Kick-off **call**',
          priority: 2,
          assignees: [183],
          tags: ['customer'],
          due_date: due,
          due_date_time: true,
          notify_all: false,
        },
      },
      output: mapped,
    },
    {
      name: 'changes the status and swaps assignees',
      action: 'update_task',
      input: { taskId: '86a1b2c3d', status: 'in progress', addAssignees: [184], removeAssignees: [183] },
      reply: { body: { ...task, status: { status: 'in progress' }, assignees: [{ id: 184 }] } },
      request: {
        method: 'PUT',
        path: '/task/86a1b2c3d',
        body: { status: 'in progress', assignees: { add: [184], rem: [183] } },
      },
      output: { ...mapped, status: 'in progress', assignees: [{ id: 184, username: null, email: null }] },
    },
    {
      name: 'comments on a task',
      action: 'add_comment',
      input: { taskId: '86a1b2c3d', text: 'Contract signed', notifyAll: true },
      reply: { body: { id: 458315, hist_id: '26508', date: 1740132000000 } },
      request: {
        method: 'POST',
        path: '/task/86a1b2c3d/comment',
        body: { comment_text: 'Contract signed', notify_all: true },
      },
      output: { id: '458315', createdAt: '2025-02-21T10:00:00.000Z' },
    },
    {
      name: 'reads a task',
      action: 'get_task',
      input: { taskId: '86a1b2c3d' },
      reply: { body: task },
      request: { method: 'GET', path: '/task/86a1b2c3d' },
      output: mapped,
    },
  ],
  sources: [
    {
      source: 'lists',
      pages: [
        {
          request: { method: 'GET', path: '/team' },
          reply: { body: { teams: [{ id: '9001', name: 'Acme' }] } },
        },
        {
          request: { method: 'GET', path: '/team/9001/space', query: { archived: 'false' } },
          reply: {
            body: {
              spaces: [
                { id: '70', name: 'Sales' },
                { id: '71', name: 'Ops' },
              ],
            },
          },
        },
        {
          request: { method: 'GET', path: '/space/70/folder', query: { archived: 'false' } },
          reply: {
            body: { folders: [{ id: '80', name: 'Q1', lists: [{ id: '901234567', name: 'Onboarding' }] }] },
          },
        },
        {
          request: { method: 'GET', path: '/space/70/list', query: { archived: 'false' } },
          reply: { body: { lists: [{ id: '901234568', name: 'Leads' }] } },
        },
        {
          request: { method: 'GET', path: '/space/71/folder', query: { archived: 'false' } },
          reply: { body: { folders: [] } },
        },
        {
          request: { method: 'GET', path: '/space/71/list', query: { archived: 'false' } },
          reply: { body: { lists: [{ id: '901234569', name: 'Backlog' }] } },
        },
      ],
      options: [
        { value: '901234567', label: 'Acme › Sales › Q1 › Onboarding' },
        { value: '901234568', label: 'Acme › Sales › Leads' },
        { value: '901234569', label: 'Acme › Ops › Backlog' },
      ],
    },
  ],
  errors: [
    {
      name: 'an unknown status keeps ClickUp’s reason and code',
      action: 'update_task',
      input: { taskId: '86a1b2c3d', status: 'nope' },
      reply: { status: 400, body: { err: 'Status does not exist', ECODE: 'CRTSK_001' } },
      message: '400: Status does not exist (CRTSK_001)',
    },
    {
      name: 'the rate limit is transient',
      action: 'get_task',
      input: { taskId: '86a1b2c3d' },
      reply: { status: 429, body: { err: 'Rate limit reached', ECODE: 'APP_002' } },
      message: '429: Rate limit reached (APP_002)',
      transient: true,
    },
  ],
});
