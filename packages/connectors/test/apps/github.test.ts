import { connectorSuite } from '@inlay/test-kit/suite';

const token = 'gho_16C7e42F292c6912E7710c838347Ae178B4a';
const issue = {
  id: 1820399001,
  number: 42,
  title: 'Deal Acme closed',
  state: 'open',
  html_url: 'https://github.com/acme/app/issues/42',
  body: 'Follow up with Ada',
  user: { login: 'inlay-bot', id: 1 },
  labels: [{ id: 7, name: 'sales' }],
  assignees: [{ login: 'ada' }],
  created_at: '2025-01-02T10:00:00Z',
  comments: 0,
};
const issueOutput = {
  id: 1820399001,
  number: 42,
  title: 'Deal Acme closed',
  state: 'open',
  url: 'https://github.com/acme/app/issues/42',
  body: 'Follow up with Ada',
  author: 'inlay-bot',
  labels: ['sales'],
  assignees: ['ada'],
  createdAt: '2025-01-02T10:00:00Z',
};
const reposQuery = {
  per_page: '100',
  sort: 'updated',
  affiliation: 'owner,collaborator,organization_member',
};

connectorSuite({
  id: 'github',
  fixture: 'github.json',
  credential: { fields: {}, oauth: { accessToken: token } },
  badCredential: { fields: {}, oauth: { accessToken: 'gho_revoked0000000000000000000000000000' } },
  auth: { header: 'authorization', value: `Bearer ${token}` },
  headers: { accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' },
  test: {
    request: { method: 'GET', path: '/user' },
    ok: { body: { login: 'ada', id: 1 } },
    rejected: {
      status: 401,
      body: { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' },
    },
    label: 'ada',
    reason: '401: Bad credentials',
  },
  actions: [
    {
      name: 'opens an issue with owner and repo given apart',
      action: 'create_issue',
      input: {
        owner: 'acme',
        repo: 'app',
        title: 'Deal Acme closed',
        body: 'Follow up with Ada',
        labels: ['sales'],
      },
      reply: { status: 201, body: issue },
      request: {
        method: 'POST',
        path: '/repos/acme/app/issues',
        body: { title: 'Deal Acme closed', body: 'Follow up with Ada', labels: ['sales'] },
      },
      output: issueOutput,
    },
    {
      name: 'adds a comment, repo given as owner/name',
      action: 'add_comment',
      input: { repo: 'acme/app', issue_number: 42, body: 'Ada signed :tada:' },
      reply: {
        status: 201,
        body: {
          id: 99,
          html_url: 'https://github.com/acme/app/issues/42#issuecomment-99',
          created_at: '2025-01-02T11:00:00Z',
        },
      },
      request: {
        method: 'POST',
        path: '/repos/acme/app/issues/42/comments',
        body: { body: 'Ada signed :tada:' },
      },
      output: {
        id: 99,
        url: 'https://github.com/acme/app/issues/42#issuecomment-99',
        createdAt: '2025-01-02T11:00:00Z',
      },
    },
    {
      name: 'lists issues and leaves pull requests out',
      action: 'list_issues',
      input: { repo: 'acme/app', labels: ['sales', 'q1'] },
      reply: {
        body: [
          issue,
          { ...issue, id: 5, number: 43, pull_request: { url: 'https://api.github.com/pulls/43' } },
        ],
      },
      request: {
        method: 'GET',
        path: '/repos/acme/app/issues',
        query: { state: 'open', labels: 'sales,q1', per_page: '30' },
      },
      output: [issueOutput],
    },
  ],
  sources: [
    {
      source: 'repositories',
      pages: [
        {
          request: { method: 'GET', path: '/user/repos', query: reposQuery },
          reply: {
            headers: {
              link: '<https://api.github.com/user/repositories?per_page=100&sort=updated&affiliation=owner%2Ccollaborator%2Corganization_member&page=2>; rel="next", <https://api.github.com/user/repositories?page=2>; rel="last"',
            },
            body: [
              { full_name: 'acme/app', permissions: { push: true } },
              { full_name: 'torvalds/linux', permissions: { push: false } },
            ],
          },
        },
        {
          request: { method: 'GET', path: '/user/repos', query: { ...reposQuery, page: '2' } },
          reply: {
            headers: { link: '<https://api.github.com/user/repositories?page=1>; rel="prev"' },
            body: [{ full_name: 'acme/site', permissions: { push: true } }],
          },
        },
      ],
      options: [
        { value: 'acme/app', label: 'acme/app' },
        { value: 'acme/site', label: 'acme/site' },
      ],
    },
  ],
  errors: [
    {
      name: 'a 422 names the invalid fields',
      action: 'create_issue',
      input: { repo: 'acme/app', title: 'x', assignees: ['nobody'] },
      reply: {
        status: 422,
        body: {
          message: 'Validation Failed',
          errors: [{ value: 'nobody', resource: 'Issue', field: 'assignees', code: 'invalid' }],
          documentation_url: 'https://docs.github.com/rest/issues/issues#create-an-issue',
        },
      },
      message: '422: Validation Failed: assignees invalid',
    },
    {
      name: 'a missing repository is a 404',
      action: 'list_issues',
      input: { owner: 'acme', repo: 'gone' },
      reply: {
        status: 404,
        body: { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' },
      },
      message: '404: Not Found',
    },
  ],
});
