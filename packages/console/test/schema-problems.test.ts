import { Validator } from '@cfworker/json-schema';
import { buildOpenApiDocument } from '@inlay/contract/openapi';
import { describe, expect, it } from 'vitest';
import { schemaFromOpenApi } from '../src/editor/schema-lint.ts';
import { fieldOf, schemaProblems } from '../src/editor/schema-problems.ts';

// The editor's problems for a workflow definition, checked against the contract's own JSON Schema: one line per
// field, in words, rather than every failure down every branch of the schema.
const validator = new Validator(
  schemaFromOpenApi(buildOpenApiDocument() as never, 'WorkflowDefinition') as never,
  '2020-12',
  false,
);
const problems = (definition: unknown) =>
  schemaProblems(validator.validate(definition).errors).map((p) => p.message);
const id = '6f1c1b9e-8a53-4c7e-9d55-3f3c0c9b1a11';
const step = { id, connector: 'transform', action: 'map', input: { expression: '1' } };

describe('schemaProblems', () => {
  it('a mistyped trigger type is one line listing the types there are', () => {
    expect(problems({ trigger: { type: 'manul' }, steps: [step] })).toEqual([
      'trigger.type: must be one of "manual", "event", "webhook", "schedule", "app"',
    ]);
  });

  it('follows the kind the value names: an event trigger needs its event', () => {
    expect(problems({ trigger: { type: 'event' }, steps: [] })).toEqual([
      'trigger: needs "event"',
      'steps: needs at least 1 item',
    ]);
  });

  it('names an unknown field and a malformed id once each, without the schema’s raw lines', () => {
    const lines = problems({ trigger: { type: 'manual' }, steps: [{ ...step, id: 'x', extra: 1 }] });
    expect(lines).toEqual(['steps[0].id: must be a uuid', 'steps[0].extra: is not a known field']);
    expect(lines.join('\n')).not.toMatch(/Instance|False boolean schema|subschema/);
  });

  it('an enum lists its values', () => {
    const connector = new Validator(
      schemaFromOpenApi(buildOpenApiDocument() as never, 'DeclarativeConnector') as never,
      '2020-12',
      false,
    );
    const lines = schemaProblems(connector.validate({ category: 'toys' }).errors).map((p) => p.message);
    expect(lines).toContainEqual(expect.stringMatching(/^category: must be one of "communication", "crm", /));
  });

  it('a valid definition has none', () => {
    expect(problems({ trigger: { type: 'manual' }, steps: [step] })).toEqual([]);
  });

  it('writes a location as a reader would', () => {
    expect(fieldOf('#/steps/0/input/a~1b')).toBe('steps[0].input.a/b');
    expect(fieldOf('#')).toBe('/');
  });
});
