import { readJsonFixture } from '@inlay/test-kit/fixture-files';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { DeclarativeConnector } from '../src/index.ts';

const slack = readJsonFixture<Record<string, any>>('slack.json');

const issuesOf = (v: unknown) => {
  const r = DeclarativeConnector.safeParse(v);
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('DeclarativeConnector', () => {
  it('accepts the Slack fixture', () => {
    expect(issuesOf(slack)).toEqual([]);
  });

  it('names the field and the rule of what is wrong', () => {
    expect(issuesOf({ ...slack, id: 'Not A Slug' })).toEqual([expect.stringMatching(/^id: must be a slug/)]);
    expect(issuesOf({ ...slack, baseUrl: 'ftp://x' })).toEqual(['baseUrl: must be an absolute http(s) URL']);
    const actions = [slack.actions[0], { ...slack.actions[1], id: 'post_message' }];
    expect(issuesOf({ ...slack, actions })).toEqual(['actions.1.id: duplicates action "post_message"']);
    const input = [{ ...slack.actions[0], input: { type: 'string' } }];
    expect(issuesOf({ ...slack, actions: input })).toEqual([
      'actions.0.input: must be a JSON Schema with "type": "object"',
    ]);
    expect(issuesOf({ ...slack, auth: { type: 'apiKey', in: 'header', name: 'x', fields: [] } })).toEqual([
      expect.stringMatching(/^auth\.fields: /),
    ]);
  });

  it('has a JSON Schema for the OpenAPI document', () => {
    const schema = z.toJSONSchema(DeclarativeConnector, { io: 'input' }) as Record<string, any>;
    const text = JSON.stringify(schema);
    for (const field of ['"baseUrl"', '"actions"', '"oauth2"', '"apiKey"', '"basic"'])
      expect(text).toContain(field);
  });
});
