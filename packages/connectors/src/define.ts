import type { z } from 'zod';
import type { ActionDefinition, PollTrigger, WebhookTrigger } from './types.ts';

/** Types `request`, `output` and `handler` with the parsed input of `input`, so a misspelt field fails to compile. */
export const defineAction = <S extends z.ZodType>(
  action: Omit<ActionDefinition<z.output<S>>, 'input'> & { input: S },
): ActionDefinition<z.output<S>> => action as ActionDefinition<z.output<S>>;

/** Types a poll trigger's functions with the parsed input of `input`. */
export const definePollTrigger = <S extends z.ZodType>(
  t: Omit<PollTrigger<z.output<S>>, 'input' | 'kind'> & { input: S },
): PollTrigger<z.output<S>> => ({ kind: 'poll', ...t }) as PollTrigger<z.output<S>>;

/** Types a webhook trigger's functions with the parsed input of `input`. */
export const defineWebhookTrigger = <S extends z.ZodType>(
  t: Omit<WebhookTrigger<z.output<S>>, 'input' | 'kind'> & { input: S },
): WebhookTrigger<z.output<S>> => ({ kind: 'webhook', ...t }) as WebhookTrigger<z.output<S>>;
