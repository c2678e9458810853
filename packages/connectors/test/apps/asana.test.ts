import { connectorSuite } from '@inlay/test-kit/suite';

const token = '2/1204170939218720/1206123456789012:5f2a8c1d9e7b3a6f4c0d2e8b1a9f7c3d';
const TASK_FIELDS = 'name,notes,completed,due_on,permalink_url,assignee.name,projects.name,workspace.name';
const rawTask = {
  gid: '1206111111111111',
  resource_type: 'task',
  name: 'Onboard Acme',
  notes: 'Kick-off call',
  completed: false,
  due_on: '2025-02-01',
  permalink_url: 'https://app.asana.com/0/1206222222222222/1206111111111111',
  assignee: { gid: '1204170939218720', name: 'Ada Lovelace' },
  projects: [{ gid: '1206222222222222', name: 'Customers' }],
  workspace: { gid: '1200000000000001', name: 'Acme' },
};
const task = {
  gid: '1206111111111111',
  name: 'Onboard Acme',
  notes: 'Kick-off call',
  completed: false,
  dueOn: '2025-02-01',
  url: 'https://app.asana.com/0/1206222222222222/1206111111111111',
  assignee: { gid: '1204170939218720', name: 'Ada Lovelace' },
  projects: [{ gid: '1206222222222222', name: 'Customers' }],
};

connectorSuite({
  id: 'asana',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: '2/revoked' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'GET', path: '/users/me', query: { opt_fields: 'name,email' } },
    ok: { body: { data: { gid: '1204170939218720', name: 'Ada', email: 'ada@acme.test' } } },
    rejected: { status: 401, body: { errors: [{ message: 'Not Authorized' }] } },
    label: 'ada@acme.test',
    reason: '401: Not Authorized',
  },
  actions: [
    {
      name: 'creates a task wrapped in {data}',
      action: 'create_task',
      input: {
        workspace: '1200000000000001',
        projects: ['1206222222222222'],
        name: 'Onboard Acme',
        notes: 'Kick-off call',
        assignee: 'me',
        due_on: '2025-02-01',
      },
      reply: { status: 201, body: { data: rawTask } },
      request: {
        method: 'POST',
        path: '/tasks',
        query: { opt_fields: TASK_FIELDS },
        body: {
          data: {
            workspace: '1200000000000001',
            projects: ['1206222222222222'],
            name: 'Onboard Acme',
            notes: 'Kick-off call',
            assignee: 'me',
            due_on: '2025-02-01',
          },
        },
      },
      output: task,
    },
    {
      name: 'adds a comment story',
      action: 'add_comment',
      input: { task: '1206111111111111', text: 'Call booked' },
      reply: {
        status: 201,
        body: {
          data: {
            gid: '1206333333333333',
            created_at: '2025-01-02T10:00:00.000Z',
            text: 'Call booked',
            type: 'comment',
          },
        },
      },
      request: {
        method: 'POST',
        path: '/tasks/1206111111111111/stories',
        body: { data: { text: 'Call booked' } },
      },
      output: { gid: '1206333333333333', createdAt: '2025-01-02T10:00:00.000Z', text: 'Call booked' },
    },
    {
      name: 'reads a task',
      action: 'get_task',
      input: { task: '1206111111111111' },
      reply: { body: { data: rawTask } },
      request: { method: 'GET', path: '/tasks/1206111111111111', query: { opt_fields: TASK_FIELDS } },
      output: task,
    },
  ],
  sources: [
    {
      source: 'workspaces',
      pages: [
        {
          request: { method: 'GET', path: '/workspaces', query: { limit: '100' } },
          reply: {
            body: {
              data: [{ gid: '1200000000000001', name: 'Acme', resource_type: 'workspace' }],
              next_page: {
                offset: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9',
                path: '/workspaces?limit=100&offset=eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9',
                uri: 'https://app.asana.com/api/1.0/workspaces?limit=100&offset=eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9',
              },
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/workspaces',
            query: { limit: '100', offset: 'eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9' },
          },
          reply: {
            body: { data: [{ gid: '1200000000000002', name: 'Personal Projects' }], next_page: null },
          },
        },
      ],
      options: [
        { value: '1200000000000001', label: 'Acme' },
        { value: '1200000000000002', label: 'Personal Projects' },
      ],
    },
  ],
  errors: [
    {
      name: 'Asana’s error message is kept',
      action: 'get_task',
      input: { task: '1' },
      reply: {
        status: 404,
        body: {
          errors: [
            { message: 'task: Unknown object: 1', help: 'For more information on API status codes...' },
          ],
        },
      },
      message: '404: task: Unknown object: 1',
    },
  ],
});
