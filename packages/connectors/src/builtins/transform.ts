import jsonata from 'jsonata';
import { z } from 'zod';
import { ConnectorError } from '../errors.ts';
import type { ConnectorDefinition } from '../types.ts';

type Compiled = ReturnType<typeof jsonata>;

// A workflow's expressions are the same run after run; compiling is most of a small transform's cost.
const CACHE_SIZE = 500;
const cache = new Map<string, Compiled>();

function compile(expression: string): Compiled {
  const hit = cache.get(expression);
  if (hit) return hit;
  const compiled = jsonata(expression);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(expression, compiled);
  return compiled;
}

export async function evaluateJsonata(expression: string, data: unknown): Promise<unknown> {
  let compiled: Compiled;
  try {
    compiled = compile(expression);
  } catch (err) {
    throw new ConnectorError(`Invalid JSONata expression: ${(err as Error).message}`, {
      code: 'invalid_expression',
      transient: false,
    });
  }
  try {
    return await compiled.evaluate(data);
  } catch (err) {
    throw new ConnectorError(`JSONata evaluation failed: ${(err as Error).message}`, {
      code: 'expression_error',
      transient: false,
    });
  }
}

export const transform: ConnectorDefinition = {
  id: 'transform',
  name: 'Transform',
  description: 'Reshape data with a JSONata expression over {trigger, config, steps, user}.',
  category: 'utility',
  icon: 'json',
  color: '000000',
  baseUrl: '',
  auth: { type: 'none' },
  actions: [
    {
      id: 'map',
      name: 'Map data',
      description: "Evaluates a JSONata expression; its result is the step's output.",
      kind: 'read',
      input: z.object({ expression: z.string().min(1).max(20_000) }),
      handler: async (input, ctx) => (await evaluateJsonata(input.expression, ctx.scope)) ?? null,
    },
  ],
};
