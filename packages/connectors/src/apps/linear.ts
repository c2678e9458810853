import { z } from 'zod';
import { defineAction, definePollTrigger } from '../define.ts';
import type { ConnectorDefinition, HttpResponse } from '../types.ts';
import { bodyLabel, graphql, graphqlError } from './helpers.ts';

const ISSUE_FIELDS =
  'id identifier title description url priority createdAt state { name } assignee { id name } team { id key }';

const TEAMS = `query Teams($after: String) {
  teams(first: 50, after: $after) { nodes { id name key } pageInfo { hasNextPage endCursor } }
}`;

const data = <T>(res: HttpResponse) => (res.body as { data: T }).data;

const issueRef = z.string().min(1).describe('Issue id or identifier, e.g. ENG-123');

const NEW_ISSUES = `query NewIssues($after: String, $filter: IssueFilter) {
  issues(first: 50, after: $after, filter: $filter, orderBy: createdAt) {
    nodes { ${ISSUE_FIELDS} } pageInfo { hasNextPage endCursor }
  }
}`;

interface LinearIssue {
  id: string;
  createdAt: string;
}

/** https://linear.app/developers/pagination: `orderBy: createdAt` lists newest first. */
const newIssue = definePollTrigger({
  id: 'new_issue',
  name: 'New issue',
  description: 'An issue is created, in one team or any (polls the issues query).',
  input: z.object({ teamId: z.string().min(1).optional().describe('Team id; every team when omitted') }),
  request: (input, _settings, since) =>
    graphql(NEW_ISSUES, {
      after: null,
      filter: {
        ...(input.teamId && { team: { id: { eq: input.teamId } } }),
        ...(typeof since === 'string' && { createdAt: { gte: since } }),
      },
    }),
  items: (body) => (body as { data: { issues: { nodes: LinearIssue[] } } }).data.issues.nodes,
  itemId: (i: LinearIssue) => i.id,
  itemPosition: (i: LinearIssue) => i.createdAt,
  paging: {
    next: (res, req) => {
      const page = data<{ issues: { pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(res)
        .issues.pageInfo;
      const vars = (req.body as { variables: Record<string, unknown> }).variables;
      return page.hasNextPage && page.endCursor
        ? graphql(NEW_ISSUES, { ...vars, after: page.endCursor })
        : undefined;
    },
  },
});

/** Linear GraphQL API: https://linear.app/developers/graphql */
export const linear: ConnectorDefinition = {
  id: 'linear',
  name: 'Linear',
  description: 'Create and read Linear issues and comment on them.',
  category: 'project-management',
  icon: 'linear',
  color: '5E6AD2',
  docs: 'https://linear.app/developers/graphql',
  baseUrl: 'https://api.linear.app',
  auth: {
    type: 'oauth2',
    authorizeUrl: 'https://linear.app/oauth/authorize',
    tokenUrl: 'https://api.linear.app/oauth/token',
    scopes: ['read', 'write'],
    scopeSeparator: ',',
    pkce: true,
  },
  test: {
    request: () => graphql('query Viewer { viewer { id name email } }'),
    accountLabel: bodyLabel('data.viewer.email', 'data.viewer.name'),
  },
  // Errors come with HTTP 200 or 400; RATELIMITED is worth a retry.
  checkResponse: (res) => graphqlError(res, 'RATELIMITED'),
  triggers: [newIssue],
  actions: [
    defineAction({
      id: 'create_issue',
      name: 'Create an issue',
      description: 'Creates an issue in a team (issueCreate mutation).',
      kind: 'write',
      input: z.object({
        teamId: z.string().min(1).describe('Team id (teams option source)'),
        title: z.string().min(1).max(512).describe('Issue title'),
        description: z.string().max(100_000).optional().describe('Markdown description'),
        priority: z
          .number()
          .int()
          .min(0)
          .max(4)
          .optional()
          .describe('0 none, 1 urgent, 2 high, 3 medium, 4 low'),
        assigneeId: z.string().optional().describe('User id of the assignee'),
        labelIds: z.array(z.string()).optional().describe('Label ids'),
      }),
      request: (input) =>
        graphql(
          `mutation IssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
          { input },
        ),
      output: (res) => data<{ issueCreate: { issue: unknown } }>(res).issueCreate.issue,
    }),
    defineAction({
      id: 'add_comment',
      name: 'Comment on an issue',
      description: 'Adds a Markdown comment to an issue (commentCreate mutation).',
      kind: 'write',
      input: z.object({
        issueId: issueRef,
        body: z.string().min(1).max(100_000).describe('Markdown comment'),
      }),
      request: (input) =>
        graphql(
          'mutation CommentCreate($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id url createdAt } } }',
          { input },
        ),
      output: (res) => data<{ commentCreate: { comment: unknown } }>(res).commentCreate.comment,
    }),
    defineAction({
      id: 'get_issue',
      name: 'Get an issue',
      description: 'Reads an issue by id or identifier (issue query).',
      kind: 'read',
      input: z.object({ id: issueRef }),
      request: (input) =>
        graphql(`query Issue($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`, { id: input.id }),
      output: (res) => data<{ issue: unknown }>(res).issue,
    }),
  ],
  sources: {
    teams: {
      description: 'Teams',
      request: () => graphql(TEAMS, { after: null }),
      items: (body) => (body as { data?: { teams?: { nodes?: unknown[] } } }).data?.teams?.nodes ?? [],
      option: (t: { id: string; name: string; key: string }) => ({
        value: t.id,
        label: `${t.name} (${t.key})`,
      }),
      paging: {
        next: (res) => {
          const page = data<{ teams: { pageInfo: { hasNextPage: boolean; endCursor: string | null } } }>(res)
            .teams.pageInfo;
          return page.hasNextPage && page.endCursor ? graphql(TEAMS, { after: page.endCursor }) : undefined;
        },
      },
    },
  },
};
