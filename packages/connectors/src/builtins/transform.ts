import { z } from 'zod';
import { evaluateExpression } from '../expressions/evaluate-expression.ts';
import type { ConnectorDefinition } from '../types.ts';

/**
 * Evaluates JSONata over `data` in the expression pool (see expressions/): a runaway expression ends at
 * `timeoutMs` or at the signal's deadline, with `expression_timeout`, instead of holding the event loop.
 */
export async function evaluateJsonata(
  expression: string,
  data: unknown,
  opts: { timeoutMs?: number; signal?: AbortSignal; tenant?: string } = {},
): Promise<unknown> {
  return evaluateExpression(expression, data, opts);
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
      // The step's deadline reaches the pool as an abort of `signal` (a TimeoutError).
      handler: async (input, ctx) =>
        (await evaluateJsonata(input.expression, ctx.scope, { signal: ctx.signal, tenant: ctx.tenant })) ??
        null,
    },
  ],
};
