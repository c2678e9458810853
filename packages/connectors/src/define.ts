import type { z } from 'zod';
import type { ActionDefinition } from './types.ts';

/** Types `request`, `output` and `handler` with the parsed input of `input`, so a misspelt field fails to compile. */
export const defineAction = <S extends z.ZodType>(
  action: Omit<ActionDefinition<z.output<S>>, 'input'> & { input: S },
): ActionDefinition<z.output<S>> => action as ActionDefinition<z.output<S>>;
