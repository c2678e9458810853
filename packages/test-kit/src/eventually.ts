import { inspect } from 'node:util';

export interface EventuallyOptions {
  /** How long to keep checking, in ms (default 20 000: CI runs two lanes on two cores, so allow for a busy machine). */
  timeout?: number;
  /** The pause between checks, in ms (default 50). */
  interval?: number;
}

/** Thrown when a condition does not hold in time; its message names the condition and what the last check saw. */
export class EventuallyTimeout extends Error {
  override name = 'EventuallyTimeout';
}

const settled = (v: unknown) => v !== undefined && v !== null && v !== false;

/**
 * The one way a test waits: calls `check` until it returns a value other than `undefined`, `null` or `false` and
 * resolves with that value. A check that throws (an `expect` that fails) counts as not yet. Past `timeout` it rejects
 * with an error naming `what` and quoting the last value or error, so a timeout says what never happened.
 *
 * ```ts
 * const run = await eventually('the run finished', async () => {
 *   const [row] = await svc.db.select().from(executions).where(eq(executions.id, id));
 *   return row?.status === 'succeeded' && row;
 * });
 * ```
 *
 * Use it wherever a condition exists; a test that only waits for a timer uses fake timers (`vi.useFakeTimers`).
 */
export async function eventually<T>(
  what: string,
  check: () => T | Promise<T>,
  opts: EventuallyOptions = {},
): Promise<Exclude<T, undefined | null | false>> {
  const { timeout = 20_000, interval = 50 } = opts;
  const end = Date.now() + timeout;
  let last: { value?: unknown; error?: unknown } = {};
  for (;;) {
    try {
      const value = await check();
      if (settled(value)) return value as Exclude<T, undefined | null | false>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    if (Date.now() >= end) {
      const seen =
        'error' in last
          ? `the last check threw ${last.error instanceof Error ? last.error.message : inspect(last.error)}`
          : `the last check returned ${inspect(last.value, { depth: 4, breakLength: Infinity })}`;
      throw new EventuallyTimeout(`timed out after ${timeout} ms waiting for ${what}: ${seen}`, {
        cause: last.error,
      });
    }
    await new Promise((r) => setTimeout(r, interval));
  }
}
