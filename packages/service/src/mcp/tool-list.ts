import type { ListToolsResult, Tool } from '@modelcontextprotocol/server';
import type { z } from 'zod';
import type { McpSession } from './session.ts';

type ToolOutput = Record<string, unknown>;

export type ToolAnnotations = { readOnlyHint?: boolean; destructiveHint?: boolean; openWorldHint?: boolean };

/** One `_inlay` tool, declared once per process (see tools.ts). */
export interface InlayTool {
  name: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: ToolAnnotations;
  run: (s: McpSession, args: unknown) => Promise<ToolOutput>;
  /** Shrinks a result over the cap (INLAY_MAX_STEP_OUTPUT_BYTES); without it such a result is a tool error. */
  fit?: (out: ToolOutput, maxBytes: number) => ToolOutput;
}

// The SDK's conversion target (`standardSchemaToJsonSchema` in @modelcontextprotocol/server), so the listed
// schemas are the ones `McpServer.registerTool` would list: mcp-tool-list.test.ts compares the two byte for byte.
const TARGET = 'draft-2020-12';

function jsonSchemaOf(schema: z.ZodObject, io: 'input' | 'output'): Record<string, unknown> {
  const json = schema['~standard'].jsonSchema[io]({ target: TARGET }) as Record<string, unknown>;
  // Every tool schema is a z.object, so the root already has `type: "object"`; the SDK puts it first on input.
  return io === 'input' ? { type: 'object', ...json } : json;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

const entries = new WeakMap<InlayTool, Tool>();

/** A tool's `tools/list` entry, its zod schemas converted to JSON Schema once per process. */
function entryOf(t: InlayTool): Tool {
  let entry = entries.get(t);
  if (!entry) {
    entry = deepFreeze({
      name: t.name,
      description: t.description,
      inputSchema: jsonSchemaOf(t.input, 'input'),
      annotations: t.annotations,
      outputSchema: jsonSchemaOf(t.output, 'output'),
    } as Tool);
    entries.set(t, entry);
  }
  return entry;
}

// At most one list per subset of the ten tools a server's restrictions leave visible: bounded by 2^10.
const lists = new Map<string, ListToolsResult>();

/**
 * The `tools/list` result for the tools a server's restrictions leave visible. It depends on nothing else
 * (not the connector catalog, the user or their credentials: those shape tool results, at call time), so a
 * change of restrictions is a different key and takes effect on the next request. Frozen: the SDK's codecs
 * copy before they add fields, and a shared result must never be changed in place.
 */
export function toolList(visible: readonly InlayTool[]): ListToolsResult {
  const key = visible.map((t) => t.name).join(' ');
  let list = lists.get(key);
  if (!list) {
    list = Object.freeze({ tools: Object.freeze(visible.map(entryOf)) as Tool[] });
    lists.set(key, list);
  }
  return list;
}
