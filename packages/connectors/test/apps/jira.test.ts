import { connectorSuite } from '@inlay/test-kit/suite';
import { describe, expect, it } from 'vitest';
import { fromAdf, toAdf } from '../../src/apps/jira.ts';

const apiToken = 'ATATT3xFfGF0kq2ZsX9yPm4R7tUvW1bC8dE5fG6hJ3kL0mN2oP4qR6sT8uV=7A1B2C3D';
const fields = { site: 'acme', email: 'ada@acme.test', apiToken };
const basic = (user: string, pass: string) => `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;

const rawIssue = {
  id: '10042',
  key: 'ENG-42',
  fields: {
    summary: 'Deal Acme closed',
    status: { name: 'To Do' },
    issuetype: { name: 'Task' },
    priority: { name: 'High' },
    assignee: { accountId: '5b10ac8d82e05b22cc7d4ef5', displayName: 'Ada Lovelace' },
    reporter: null,
    labels: ['sales'],
    description: toAdf('Call Ada\nSend contract'),
    created: '2025-01-02T10:00:00.000+0000',
    updated: '2025-01-02T11:00:00.000+0000',
  },
};
const issueOutput = {
  id: '10042',
  key: 'ENG-42',
  summary: 'Deal Acme closed',
  status: 'To Do',
  issueType: 'Task',
  priority: 'High',
  assignee: { accountId: '5b10ac8d82e05b22cc7d4ef5', name: 'Ada Lovelace' },
  reporter: null,
  labels: ['sales'],
  description: 'Call Ada\nSend contract',
  created: '2025-01-02T10:00:00.000+0000',
  updated: '2025-01-02T11:00:00.000+0000',
};
const FIELDS = 'summary,status,assignee,reporter,issuetype,priority,labels,description,created,updated';

connectorSuite({
  id: 'jira',
  credential: { fields },
  badCredential: { fields: { ...fields, apiToken: 'ATATT3-revoked' } },
  auth: { header: 'authorization', value: basic('ada@acme.test', apiToken) },
  test: {
    request: { method: 'GET', path: '/myself' },
    ok: { body: { accountId: '5b10ac8d82e05b22cc7d4ef5', emailAddress: 'ada@acme.test' } },
    rejected: {
      status: 401,
      body: { errorMessages: ['Client must be authenticated to access this resource.'], errors: {} },
    },
    label: 'ada@acme.test',
    reason: '401: Client must be authenticated to access this resource.',
  },
  actions: [
    {
      name: 'creates an issue with an ADF description',
      action: 'create_issue',
      input: {
        project: 'ENG',
        summary: 'Deal Acme closed',
        description: 'Call Ada\n\nSend contract',
        labels: ['sales'],
      },
      reply: {
        status: 201,
        body: { id: '10042', key: 'ENG-42', self: 'https://acme.atlassian.net/rest/api/3/issue/10042' },
      },
      request: {
        method: 'POST',
        path: '/issue',
        body: {
          fields: {
            project: { key: 'ENG' },
            issuetype: { name: 'Task' },
            summary: 'Deal Acme closed',
            labels: ['sales'],
            description: {
              type: 'doc',
              version: 1,
              content: [
                { type: 'paragraph', content: [{ type: 'text', text: 'Call Ada' }] },
                { type: 'paragraph', content: [] },
                { type: 'paragraph', content: [{ type: 'text', text: 'Send contract' }] },
              ],
            },
          },
        },
      },
      output: { id: '10042', key: 'ENG-42' },
    },
    {
      name: 'posts an ADF comment',
      action: 'add_comment',
      input: { issue: 'ENG-42', body: 'Signed' },
      reply: {
        status: 201,
        body: { id: '10100', created: '2025-01-02T12:00:00.000+0000', author: { displayName: 'Ada' } },
      },
      request: {
        method: 'POST',
        path: '/issue/ENG-42/comment',
        body: {
          body: {
            type: 'doc',
            version: 1,
            content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Signed' }] }],
          },
        },
      },
      output: { id: '10100', created: '2025-01-02T12:00:00.000+0000', author: 'Ada' },
    },
    {
      name: 'reads an issue and flattens its description to text',
      action: 'get_issue',
      input: { issue: 'ENG-42' },
      reply: { body: rawIssue },
      request: { method: 'GET', path: '/issue/ENG-42', query: { fields: FIELDS } },
      output: issueOutput,
    },
    {
      name: 'searches with JQL on /search/jql and returns the next page token',
      action: 'search_issues',
      input: { jql: 'project = ENG AND status = "To Do"', maxResults: 10 },
      reply: { body: { issues: [rawIssue], nextPageToken: 'CAEaAggD', isLast: false } },
      request: {
        method: 'GET',
        path: '/search/jql',
        query: { jql: 'project = ENG AND status = "To Do"', maxResults: '10', fields: FIELDS },
      },
      output: { issues: [issueOutput], nextPageToken: 'CAEaAggD' },
    },
  ],
  sources: [
    {
      source: 'projects',
      pages: [
        {
          request: {
            method: 'GET',
            path: '/project/search',
            query: { startAt: '0', maxResults: '50', orderBy: 'name' },
          },
          reply: {
            body: {
              startAt: 0,
              maxResults: 1,
              total: 2,
              isLast: false,
              values: [{ id: '1', key: 'ENG', name: 'Engineering' }],
            },
          },
        },
        {
          request: {
            method: 'GET',
            path: '/project/search',
            query: { startAt: '1', maxResults: '50', orderBy: 'name' },
          },
          reply: {
            body: {
              startAt: 1,
              maxResults: 1,
              total: 2,
              isLast: true,
              values: [{ id: '2', key: 'OPS', name: 'Operations' }],
            },
          },
        },
      ],
      options: [
        { value: 'ENG', label: 'Engineering (ENG)' },
        { value: 'OPS', label: 'Operations (OPS)' },
      ],
    },
  ],
  errors: [
    {
      name: 'field errors are named',
      action: 'create_issue',
      input: { project: 'ENG', summary: 'x', issueType: 'Epic' },
      reply: {
        status: 400,
        body: { errorMessages: [], errors: { issuetype: 'Specify a valid issue type' } },
      },
      message: '400: issuetype: Specify a valid issue type',
    },
  ],
});

describe('jira ADF', () => {
  it('round-trips text through Atlassian Document Format', () => {
    expect(fromAdf(toAdf('one\ntwo'))).toBe('one\ntwo');
    expect(
      fromAdf({
        type: 'doc',
        content: [
          {
            type: 'paragraph',
            content: [{ type: 'text', text: 'a' }, { type: 'hardBreak' }, { type: 'text', text: 'b' }],
          },
        ],
      }),
    ).toBe('a\nb');
  });
});
