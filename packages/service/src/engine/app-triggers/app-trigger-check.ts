import { type ConnectorRuntime, triggerInputProblem } from '@inlay/connectors';
import type { Trigger } from '@inlay/contract';
import { unprocessable } from '../../http/problem.ts';

export type AppTrigger = Extract<Trigger, { type: 'app' }>;

/** `INLAY_POLL_MIN_INTERVAL_MS` when unset. */
export const DEFAULT_POLL_MIN_INTERVAL_MS = 60_000;
/** How often a polling trigger asks its app when the definition gives no `every`. */
export const DEFAULT_EVERY_MS = 5 * 60_000;

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** `"5m"` in milliseconds; the contract's pattern has already checked the form. */
export function everyMs(every: string | undefined): number {
  if (!every) return DEFAULT_EVERY_MS;
  const [, n, unit] = /^(\d+)(ms|s|m|h)$/.exec(every)!;
  return Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS];
}

/**
 * Refuses an app trigger whose connector, trigger or input does not exist or fit (422 naming the field), or
 * that polls more often than the operator allows.
 */
export function checkAppTrigger(
  trigger: AppTrigger,
  runtime: ConnectorRuntime,
  field: string,
  minPollMs: number,
) {
  const def = runtime.get(trigger.connector);
  if (!def) throw unprocessable(`${field}.connector`, 'exists', `no connector "${trigger.connector}"`);
  const t = def.triggers?.find((x) => x.id === trigger.trigger);
  if (!t)
    throw unprocessable(
      `${field}.trigger`,
      'exists',
      `connector "${trigger.connector}" has no trigger "${trigger.trigger}"`,
    );
  const problem = triggerInputProblem(t, trigger.input);
  if (problem) {
    const at = problem.slice(0, problem.indexOf(':'));
    throw unprocessable(
      `${field}.input${at === 'input' ? '' : `.${at}`}`,
      'schema',
      problem.slice(at.length + 2),
    );
  }
  if (t.kind === 'poll' && everyMs(trigger.every) < minPollMs)
    throw unprocessable(
      `${field}.every`,
      'minimum',
      `polls at most every ${minPollMs / 1000} s on this server`,
    );
}
