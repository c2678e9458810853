import { connectorSuite } from '@inlay/test-kit/suite';
import { expect } from 'vitest';

const token = 'lin_oauth_8f3c2b1a9d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d3e2f1a';
const issue = {
  id: '2f9c6a3e-1b7d-4e2a-9c5f-0a1b2c3d4e5f',
  identifier: 'ENG-123',
  title: 'Deal Acme closed',
  description: 'Follow up',
  url: 'https://linear.app/acme/issue/ENG-123/deal-acme-closed',
  priority: 2,
  createdAt: '2025-01-02T10:00:00.000Z',
  state: { name: 'Todo' },
  assignee: null,
  team: { id: 'team-1', key: 'ENG' },
};
const gql = (operation: string, variables: unknown) => ({
  query: expect.stringContaining(operation),
  variables,
});

connectorSuite({
  id: 'linear',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'lin_oauth_revoked' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  test: {
    request: { method: 'POST', path: '/graphql', body: gql('viewer', {}) },
    ok: { body: { data: { viewer: { id: 'u1', name: 'Ada', email: 'ada@acme.test' } } } },
    rejected: {
      status: 400,
      body: {
        errors: [
          {
            message: 'Authentication required, not authenticated',
            extensions: {
              code: 'AUTHENTICATION_ERROR',
              userPresentableMessage: 'You need to authenticate to access this operation.',
            },
          },
        ],
      },
    },
    label: 'ada@acme.test',
    reason: '400: You need to authenticate to access this operation.',
  },
  actions: [
    {
      name: 'runs issueCreate and returns the issue',
      action: 'create_issue',
      input: { teamId: 'team-1', title: 'Deal Acme closed', description: 'Follow up', priority: 2 },
      reply: { body: { data: { issueCreate: { success: true, issue } } } },
      request: {
        method: 'POST',
        path: '/graphql',
        body: gql('issueCreate(input: $input)', {
          input: { teamId: 'team-1', title: 'Deal Acme closed', description: 'Follow up', priority: 2 },
        }),
      },
      output: issue,
    },
    {
      name: 'runs commentCreate',
      action: 'add_comment',
      input: { issueId: 'ENG-123', body: 'Signed **today**' },
      reply: {
        body: {
          data: {
            commentCreate: {
              success: true,
              comment: {
                id: 'c1',
                url: 'https://linear.app/acme/issue/ENG-123#comment-c1',
                createdAt: '2025-01-02T11:00:00.000Z',
              },
            },
          },
        },
      },
      request: {
        method: 'POST',
        path: '/graphql',
        body: gql('commentCreate(input: $input)', {
          input: { issueId: 'ENG-123', body: 'Signed **today**' },
        }),
      },
      output: {
        id: 'c1',
        url: 'https://linear.app/acme/issue/ENG-123#comment-c1',
        createdAt: '2025-01-02T11:00:00.000Z',
      },
    },
    {
      name: 'reads an issue by identifier',
      action: 'get_issue',
      input: { id: 'ENG-123' },
      reply: { body: { data: { issue } } },
      request: { method: 'POST', path: '/graphql', body: gql('issue(id: $id)', { id: 'ENG-123' }) },
      output: issue,
    },
  ],
  sources: [
    {
      source: 'teams',
      pages: [
        {
          request: {
            method: 'POST',
            path: '/graphql',
            body: gql('teams(first: 50, after: $after)', { after: null }),
          },
          reply: {
            body: {
              data: {
                teams: {
                  nodes: [{ id: 'team-1', name: 'Engineering', key: 'ENG' }],
                  pageInfo: { hasNextPage: true, endCursor: 'Y3Vyc29yOjE=' },
                },
              },
            },
          },
        },
        {
          request: { method: 'POST', path: '/graphql', body: gql('teams(', { after: 'Y3Vyc29yOjE=' }) },
          reply: {
            body: {
              data: {
                teams: {
                  nodes: [{ id: 'team-2', name: 'Sales', key: 'SAL' }],
                  pageInfo: { hasNextPage: false, endCursor: null },
                },
              },
            },
          },
        },
      ],
      options: [
        { value: 'team-1', label: 'Engineering (ENG)' },
        { value: 'team-2', label: 'Sales (SAL)' },
      ],
    },
  ],
  errors: [
    {
      name: 'GraphQL errors in an HTTP 200 fail the step',
      action: 'create_issue',
      input: { teamId: 'nope', title: 'x' },
      reply: {
        body: {
          data: null,
          errors: [
            {
              message: 'Argument Validation Error',
              extensions: { code: 'INVALID_INPUT', userPresentableMessage: 'Team not found' },
            },
          ],
        },
      },
      message: 'Team not found',
    },
    {
      name: 'RATELIMITED is transient even with HTTP 400',
      action: 'get_issue',
      input: { id: 'ENG-1' },
      reply: {
        status: 400,
        body: { errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATELIMITED' } }] },
      },
      message: '400: Rate limit exceeded',
      transient: true,
    },
  ],
});
