import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import { ConnectorError } from '../errors.ts';
import type { ConnectorDefinition } from '../types.ts';

export const MAX_DELAY_MS = 15 * 60 * 1000;

export const delay: ConnectorDefinition = {
  id: 'delay',
  name: 'Delay',
  description: 'Wait before the next step.',
  category: 'utility',
  icon: 'clockify',
  color: '03A9F4',
  baseUrl: '',
  auth: { type: 'none' },
  actions: [
    {
      id: 'wait',
      name: 'Wait',
      description: 'Pauses the run for `ms` milliseconds.',
      kind: 'read',
      input: z.object({ ms: z.coerce.number().int().min(0).max(MAX_DELAY_MS) }),
      handler: async (input, ctx) => {
        try {
          await sleep(input.ms, undefined, { signal: ctx.signal });
        } catch {
          throw new ConnectorError('The wait was cancelled', { code: 'aborted', transient: false });
        }
        return { waitedMs: input.ms };
      },
    },
  ],
};
