import type { Trigger } from '@inlay/contract';
import { Cron } from 'croner';

/** The next time a cron expression fires after `from`, or undefined when it never will. */
export function nextRun(cron: string, timezone: string | undefined, from = new Date()): Date | undefined {
  return new Cron(cron, { timezone, paused: true }).nextRun(from) ?? undefined;
}

/** Why a cron expression or time zone is unusable, or undefined when it is fine. */
export function cronProblem(cron: string, timezone?: string): string | undefined {
  try {
    // A pattern that parses but never matches (30 February) would sit in the scheduler forever.
    if (!new Cron(cron, { timezone, paused: true }).nextRun()) return 'the expression never fires';
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** The `user_workflows` columns that let fan-out and the scheduler find a workflow without reading its JSON. */
export function triggerColumns(trigger: Trigger, now = new Date()) {
  return {
    triggerType: trigger.type,
    event: trigger.type === 'event' ? trigger.event : null,
    cron: trigger.type === 'schedule' ? trigger.cron : null,
    timezone: trigger.type === 'schedule' ? (trigger.timezone ?? null) : null,
    // An app trigger is armed at the poller's next pass: its first poll records the baseline.
    nextRunAt:
      trigger.type === 'schedule'
        ? (nextRun(trigger.cron, trigger.timezone, now) ?? null)
        : trigger.type === 'app'
          ? now
          : null,
    triggerState: trigger.type === 'app' ? {} : null,
  };
}
