import {
  ConnectorDefinitionSchema,
  compileDeclarative,
  EgressDenied,
  type EgressPolicy,
  expressionProblem,
  requestHeaderProblem,
} from '@inlay/connectors';
import type { DeclarativeConnector, DeclarativeRequest, ProblemFieldError } from '@inlay/contract';
import { z } from 'zod';
import { HttpProblem } from '../http/problem.ts';
import { fieldErrors } from '../http/validate.ts';
import { sanitizeSvg } from './sanitize-svg.ts';

const bad = (status: 400 | 422, code: 'invalid_request' | 'egress_denied', errors: ProblemFieldError[]) =>
  new HttpProblem(status, code, errors.map((e) => `${e.field} ${e.message}`).join('; '), { errors });

/** The expressions of a `{{ }}` template. */
const TEMPLATE = /\{\{\s*([\s\S]+?)\s*\}\}/g;

/** Every URL of a definition the runtime will call, by the field that holds it. */
function urlsOf(d: DeclarativeConnector): [string, string][] {
  return [
    ['body.baseUrl', d.baseUrl],
    ...Object.entries(d.apis ?? {}).map(([k, v]): [string, string] => [`body.apis.${k}`, v]),
    ...(d.auth.type === 'oauth2'
      ? ([
          ['body.auth.authorizeUrl', d.auth.authorizeUrl],
          ['body.auth.tokenUrl', d.auth.tokenUrl],
        ] as [string, string][])
      : []),
  ];
}

/**
 * What the schema cannot check of a definition an account sends: its icon is sanitised, its URLs pass the
 * egress policy (each request is checked again when it connects), every action's input is a JSON Schema zod
 * can run (and every trigger's), its JSONata parses (outputs, items, item ids, labels, the error message), and
 * no header is one the transport owns. Returns the definition to store; a problem names the field.
 */
export function prepareDefinition(d: DeclarativeConnector, egress: EgressPolicy): DeclarativeConnector {
  const errors: ProblemFieldError[] = [];
  let icon = d.icon;
  if (icon.trimStart().startsWith('<')) {
    const clean = sanitizeSvg(icon);
    if (!clean)
      errors.push({ field: 'body.icon', rule: 'svg', message: 'holds no <svg> image once sanitised' });
    else icon = clean;
  }
  const schema = (field: string, input: unknown) => {
    try {
      z.fromJSONSchema(input as Parameters<typeof z.fromJSONSchema>[0]);
    } catch (err) {
      errors.push({ field, rule: 'json_schema', message: (err as Error).message });
    }
  };
  const jsonata = (field: string, expression: string | undefined) => {
    const problem = expression === undefined ? undefined : expressionProblem(expression);
    if (problem) errors.push({ field, rule: 'jsonata', message: `invalid JSONata: ${problem}` });
  };
  const headers = (field: string, r: DeclarativeRequest) => {
    for (const [name, value] of Object.entries(r.headers ?? {})) {
      const headerProblem = requestHeaderProblem(name, value);
      if (headerProblem)
        errors.push({ field: `${field}.headers.${name}`, rule: 'header', message: headerProblem });
    }
  };
  jsonata('body.errorMessage', d.errorMessage);
  d.actions.forEach((a, i) => {
    schema(`body.actions[${i}].input`, a.input);
    jsonata(`body.actions[${i}].output`, a.output);
    headers(`body.actions[${i}].request`, a.request);
  });
  for (const [k, src] of Object.entries(d.sources ?? {})) {
    jsonata(`body.sources.${k}.items`, src.items);
    for (const m of src.label.matchAll(TEMPLATE)) jsonata(`body.sources.${k}.label`, m[1]);
    headers(`body.sources.${k}.request`, src.request);
  }
  d.triggers?.forEach((t, i) => {
    const at = `body.triggers[${i}]`;
    schema(`${at}.input`, t.input);
    for (const key of ['items', 'itemId', 'itemPosition', 'output'] as const) jsonata(`${at}.${key}`, t[key]);
    if (t.kind === 'poll') headers(`${at}.request`, t.request);
    else {
      headers(`${at}.subscribe`, t.subscribe);
      headers(`${at}.unsubscribe`, t.unsubscribe);
    }
  });
  if (errors.length) throw bad(400, 'invalid_request', errors);
  const prepared = { ...d, icon };
  const checked = ConnectorDefinitionSchema.safeParse(compileDeclarative(prepared));
  if (!checked.success) throw bad(400, 'invalid_request', fieldErrors('body', checked.error, prepared));
  const denied: ProblemFieldError[] = [];
  for (const [field, url] of urlsOf(d))
    try {
      egress.check(new URL(url));
    } catch (err) {
      if (!(err instanceof EgressDenied)) throw err;
      denied.push({
        field,
        rule: 'egress',
        message: `${err.message}. An operator can open it with INLAY_EGRESS_ALLOW`,
      });
    }
  if (denied.length) throw bad(422, 'egress_denied', denied);
  return prepared;
}
