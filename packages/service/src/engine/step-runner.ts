import { setTimeout as sleep } from 'node:timers/promises';
import { type CallOptions, ConnectorError, type ConnectorRuntime } from '@inlay/connectors';
import type { Step } from '@inlay/contract';
import type { Config } from '../config.ts';
import { type BackoffPolicy, retryDelay } from './backoff.ts';
import type { StepCredential } from './run-credentials.ts';
import { StepFailure } from './step-failure.ts';

export interface StepSettings {
  timeoutMs: number;
  retries: number;
  backoff: BackoffPolicy;
}

export type StepOutcome =
  | { ok: true; output: unknown; statusCode?: number; attempts: number }
  | { ok: false; failure: StepFailure; attempts: number };

/** The step's time limit: its own, else the default; a `delay` step gets its wait on top of the default. */
export function stepTimeout(step: Step, input: unknown, defaultMs: number): number {
  if (step.timeoutMs !== undefined) return step.timeoutMs;
  const ms = Number((input as { ms?: unknown } | null)?.ms);
  return step.connector === 'delay' && Number.isFinite(ms) && ms > 0 ? ms + defaultMs : defaultMs;
}

/** A step's time and retry budget: the node's settings, under the step's own overrides. */
export function stepSettings(
  config: Pick<Config, 'stepTimeoutMs' | 'stepRetries' | 'retryBaseMs' | 'retryMaxMs'>,
  step: Step,
  input: unknown,
): StepSettings {
  return {
    timeoutMs: stepTimeout(step, input, config.stepTimeoutMs),
    retries: step.retries ?? config.stepRetries,
    backoff: { baseMs: config.retryBaseMs, maxMs: config.retryMaxMs },
  };
}

/** An expression stopped at its limit: its own code says more than `timeout`, and a retry would not help. */
const isExpressionLimit = (err: unknown) =>
  err instanceof ConnectorError && (err.code === 'expression_timeout' || err.code === 'expression_memory');

/** Runs one attempt, bounded by `timeoutMs` even when the action ignores its abort signal. */
async function attempt<T>(
  fn: (signal: AbortSignal) => Promise<T>,
  timeoutMs: number,
  run: AbortSignal,
): Promise<T> {
  const limit = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // A TimeoutError tells the action it hit its deadline (an expression then fails as
      // expression_timeout); the generic timeout waits a turn, so an action that ends at once answers first.
      limit.abort(new DOMException(`The step did not finish within ${timeoutMs} ms`, 'TimeoutError'));
      setImmediate(() =>
        reject(
          new StepFailure('timeout', `The step did not finish within ${timeoutMs} ms`, { transient: true }),
        ),
      );
    }, timeoutMs);
  });
  // A cancelled run ends the attempt at once, even if the action ignores its signal.
  let onAbort: (() => void) | undefined;
  const cancelled = new Promise<never>((_, reject) => {
    onAbort = () => reject(run.reason);
    if (run.aborted) onAbort();
    else run.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([fn(AbortSignal.any([run, limit.signal])), timedOut, cancelled]);
  } catch (err) {
    // The runtime reports our own time limit as a cancellation; it is a timeout, and worth a retry.
    if (limit.signal.aborted && !run.aborted && !isExpressionLimit(err))
      throw new StepFailure('timeout', `The step did not finish within ${timeoutMs} ms`, { transient: true });
    throw err;
  } finally {
    clearTimeout(timer);
    run.removeEventListener('abort', onAbort!);
  }
}

/**
 * Executes a step's action with its credential. Transient failures (429, 5xx, network, timeout) are retried
 * up to `retries` times with exponential backoff and jitter, or after the provider's `Retry-After`; anything
 * else ends the step at once. A cancelled run (`run` aborted) rejects with the signal's reason.
 */
export async function runStep(
  runtime: ConnectorRuntime,
  step: Step,
  input: unknown,
  ctx: {
    credential?: StepCredential;
    scope: Record<string, unknown>;
    settings: StepSettings;
    signal: AbortSignal;
    /** The account the step runs for: its expressions take turns with other accounts'. */
    tenant?: string;
    /** Told of each request to the provider (the provider-call log). */
    onCall?: CallOptions['onCall'];
  },
): Promise<StepOutcome> {
  const { settings, signal } = ctx;
  for (let n = 1; ; n++) {
    try {
      const res = await attempt(
        (s) =>
          runtime.execute(step.connector, step.action, input, {
            credential: ctx.credential?.secrets,
            onUnauthorized: ctx.credential?.onUnauthorized,
            onAuthRefused: ctx.credential?.onAuthRefused,
            signal: s,
            timeoutMs: settings.timeoutMs,
            scope: ctx.scope,
            tenant: ctx.tenant,
            onCall: ctx.onCall,
          }),
        settings.timeoutMs,
        signal,
      );
      return { ok: true, output: res.output, statusCode: res.statusCode, attempts: n };
    } catch (err) {
      if (signal.aborted) throw signal.reason;
      const failure = StepFailure.from(err);
      if (!failure.transient || n > settings.retries) return { ok: false, failure, attempts: n };
      try {
        await sleep(retryDelay(n, settings.backoff, failure.opts.retryAfterMs), undefined, { signal });
      } catch {
        throw signal.reason;
      }
    }
  }
}
