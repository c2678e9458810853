import type { OutputUnit } from '@cfworker/json-schema';

/** One problem of a document: where (a JSON pointer, `#/trigger/type`) and what, in a sentence. */
export interface SchemaProblem {
  location: string;
  message: string;
}

const COMBINATORS = new Set(['oneOf', 'anyOf']);
const quoted = (s: string) => /"([^"]*)"/.exec(s)?.[1];
const under = (e: OutputUnit, prefix: string) => e.keywordLocation.startsWith(prefix);

/** `#/steps/0/id` as a reader writes it: `steps[0].id` (the document itself is `/`). */
export const fieldOf = (location: string) =>
  location
    .replace(/^#\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce((path, s) => (/^\d+$/.test(s) ? `${path}[${s}]` : path ? `${path}.${s}` : s), '') || '/';

/** A validator's failure as a sentence fragment: "must be "manual"", "needs "event"", "is not a known field". */
function sentence(e: OutputUnit): { location: string; message: string; value?: string } {
  switch (e.keyword) {
    case 'const':
      return {
        location: e.instanceLocation,
        message: `must be "${quoted(e.error)}"`,
        value: quoted(e.error),
      };
    case 'required':
      return { location: e.instanceLocation, message: `needs "${quoted(e.error)}"` };
    case 'additionalProperties':
      return { location: `${e.instanceLocation}/${quoted(e.error)}`, message: 'is not a known field' };
    case 'enum': {
      const values = /any of (\[.*\])\.$/.exec(e.error)?.[1];
      const list = values ? (JSON.parse(values) as unknown[]).map((v) => JSON.stringify(v)).join(', ') : '';
      return {
        location: e.instanceLocation,
        message: list ? `must be one of ${list}` : 'is not an allowed value',
      };
    }
    case 'minItems': {
      const n = Number(/< (\d+)\)/.exec(e.error)?.[1] ?? 1);
      return { location: e.instanceLocation, message: `needs at least ${n} ${n === 1 ? 'item' : 'items'}` };
    }
    case 'format':
      return { location: e.instanceLocation, message: `must be a ${quoted(e.error)}` };
    default:
      return { location: e.instanceLocation, message: e.error.replace(/^Instance /, '').replace(/\.$/, '') };
  }
}

/**
 * A JSON Schema validator's output (every failure down every branch) as one line per field. Of a `oneOf` or
 * `anyOf`, only the branch that came closest counts, and when every branch failed only on the same constant
 * (a `type` that names the kind), the line lists the values it may take.
 */
export function schemaProblems(errors: OutputUnit[]): SchemaProblem[] {
  const isLeaf = (e: OutputUnit) =>
    e.keyword !== 'false' &&
    !errors.some((o) => o !== e && o.keyword !== 'false' && under(o, `${e.keywordLocation}/`));
  let leaves = errors.filter((e) => isLeaf(e) || e.keyword === 'additionalProperties');
  const merged = new Map<OutputUnit, string[]>();
  const combinators = errors
    .filter((e) => COMBINATORS.has(e.keyword))
    .sort((a, b) => a.keywordLocation.length - b.keywordLocation.length);
  for (const c of combinators) {
    const inside = leaves.filter((l) => under(l, `${c.keywordLocation}/`));
    if (!inside.length) continue;
    const branches = new Map<string, OutputUnit[]>();
    for (const l of inside) {
      const n = l.keywordLocation.slice(c.keywordLocation.length + 1).split('/')[0]!;
      branches.set(n, [...(branches.get(n) ?? []), l]);
    }
    const groups = [...branches.values()];
    const consts = groups.map((g) => g.find((l) => l.keyword === 'const'));
    let keep: OutputUnit[];
    if (consts.every((k) => k && k.instanceLocation === consts[0]!.instanceLocation)) {
      // Every branch is told apart by one constant the value missed: say which values it may take.
      keep = [consts[0]!];
      merged.set(
        consts[0]!,
        consts.map((k) => quoted(k!.error)!),
      );
    } else {
      // The closest branch: one whose constants matched (the kind the value says it is), with the fewest failures.
      const matched = groups.filter((_, i) => !consts[i]);
      keep = (matched.length ? matched : groups).reduce((best, g) => (g.length < best.length ? g : best));
    }
    leaves = leaves.filter((l) => !inside.includes(l) || keep.includes(l));
  }
  const lines = new Map<string, string[]>();
  for (const l of leaves) {
    const s = sentence(l);
    const values = merged.get(l);
    const message = values ? `must be one of ${values.map((v) => `"${v}"`).join(', ')}` : s.message;
    const at = lines.get(s.location) ?? [];
    // A pattern says less than the format beside it ("must be a uuid").
    const redundant =
      l.keyword === 'pattern' &&
      leaves.some((o) => o.keyword === 'format' && o.instanceLocation === l.instanceLocation);
    if (!at.includes(message) && !redundant) at.push(message);
    lines.set(s.location, at);
  }
  return [...lines]
    .filter(([, m]) => m.length)
    .map(([location, messages]) => ({ location, message: `${fieldOf(location)}: ${messages.join('; ')}` }));
}
