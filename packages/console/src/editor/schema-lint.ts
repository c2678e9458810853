import { Validator } from '@cfworker/json-schema';
import { syntaxTree } from '@codemirror/language';
import type { Diagnostic } from '@codemirror/lint';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';
import { schemaProblems } from './schema-problems.ts';

/**
 * The contract's JSON Schema for one of its types, from the service's OpenAPI 3.1 document (its schemas are
 * JSON Schema 2020-12): the components move under `$defs` so the validator resolves every `$ref`.
 */
export function schemaFromOpenApi(doc: { components?: { schemas?: Record<string, unknown> } }, name: string) {
  const defs = JSON.parse(
    JSON.stringify(doc.components?.schemas ?? {}).replaceAll('"#/components/schemas/', '"#/$defs/'),
  );
  return { $ref: `#/$defs/${name}`, $defs: defs };
}

const VALUES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);
const values = (n: SyntaxNode) => {
  const out: SyntaxNode[] = [];
  for (let c = n.firstChild; c; c = c.nextSibling) if (VALUES.has(c.name)) out.push(c);
  return out;
};

/** The text range of the JSON value at an instance location (`#/steps/0/connector`), or its nearest parent. */
export function rangeOf(state: EditorState, location: string) {
  let node = values(syntaxTree(state).topNode)[0];
  if (!node) return { from: 0, to: state.doc.length };
  const segments = location.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  for (const raw of segments) {
    const seg = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    let next: SyntaxNode | undefined;
    if (node.name === 'Object') {
      for (let p = node.firstChild; p && !next; p = p.nextSibling) {
        if (p.name !== 'Property') continue;
        const key = p.getChild('PropertyName');
        if (key && JSON.parse(state.sliceDoc(key.from, key.to)) === seg) next = values(p)[0];
      }
    } else if (node.name === 'Array') next = values(node)[Number(seg)];
    if (!next) break;
    node = next;
  }
  return { from: node.from, to: node.to };
}

/** A linter source: the document parsed as JSON and checked against the schema, one problem per field at its value. */
export function jsonSchemaDiagnostics(schema: object) {
  const validator = new Validator(schema as never, '2020-12', false);
  return (state: EditorState): Diagnostic[] => {
    let value: unknown;
    try {
      value = JSON.parse(state.doc.toString());
    } catch {
      return []; // jsonParseLinter reports syntax errors
    }
    const r = validator.validate(value);
    if (r.valid) return [];
    return schemaProblems(r.errors).map((p) => ({
      ...rangeOf(state, p.location),
      severity: 'error' as const,
      message: p.message,
    }));
  };
}
