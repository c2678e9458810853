import { EventEmitter } from 'node:events';
import jsonata from 'jsonata';
import { ConnectorError } from '../errors.ts';
import {
  type EvaluateOptions,
  ExpressionPool,
  type ExpressionPoolEvents,
  type ExpressionPoolOptions,
  type ExpressionPoolStats,
} from './expression-pool.ts';
import { lookupPath } from './path-lookup.ts';

/** Without a deadline of its own, an expression gets this long. */
export const DEFAULT_EXPRESSION_TIMEOUT_MS = 30_000;

let settings: ExpressionPoolOptions = { workers: 2, memoryMb: 64 };
let pool: ExpressionPool | undefined;

/**
 * The events of the process's expression pool, whichever it is now: `worker-ready` (pid) when a worker has
 * started, `worker-start-failed` ({reason, stderr, failures, retryInMs}) when one could not.
 */
export const expressionPoolEvents = new EventEmitter<ExpressionPoolEvents>();
// Each service of the process (tests start many) may listen.
expressionPoolEvents.setMaxListeners(0);

function sharedPool(): ExpressionPool {
  if (pool) return pool;
  pool = new ExpressionPool(settings);
  pool.on('worker-ready', (pid) => expressionPoolEvents.emit('worker-ready', pid));
  pool.on('worker-start-failed', (f) => expressionPoolEvents.emit('worker-start-failed', f));
  return pool;
}

/** What the process's expression pool holds now (all zeros before its first expression). */
export function expressionPoolStats(): ExpressionPoolStats {
  return (
    pool?.stats() ?? { ready: 0, busy: 0, starting: 0, queued: 0, startFailures: 0, started: 0, pids: [] }
  );
}

/**
 * Sets the pool's size and memory budget (the service does, from its configuration). The pool is one per
 * process; a change restarts it, failing expressions still running.
 */
export function configureExpressions(opts: Partial<ExpressionPoolOptions>): void {
  const next = { ...settings, ...opts };
  if (next.workers === settings.workers && next.memoryMb === settings.memoryMb) return;
  settings = next;
  const old = pool;
  pool = undefined;
  void old?.close();
}

// A workflow's expressions are the same run after run; parsing is most of a small expression's cost.
const PARSED_MAX = 5_000;
const parsed = new Map<string, true | Error>();

/** Parses an expression (cached) and returns why it is not valid JSONata, or undefined when it is. */
export function expressionProblem(expression: string): string | undefined {
  let verdict = parsed.get(expression);
  if (verdict === undefined) {
    try {
      jsonata(expression);
      verdict = true;
    } catch (err) {
      verdict = err as Error;
    }
    if (parsed.size >= PARSED_MAX) parsed.delete(parsed.keys().next().value as string);
    parsed.set(expression, verdict);
  }
  return verdict === true ? undefined : verdict.message;
}

/**
 * Evaluates a JSONata expression over `data` and returns its result as plain JSON data. A plain path is
 * looked up in place; anything else runs in the expression pool, bounded by `timeoutMs` and the memory
 * budget. Fails with a ConnectorError: `invalid_expression`, `expression_error`, `expression_timeout` or
 * `expression_memory`.
 */
export async function evaluateExpression(
  expression: string,
  data: unknown,
  opts: Partial<EvaluateOptions> = {},
): Promise<unknown> {
  const problem = expressionProblem(expression);
  if (problem)
    throw new ConnectorError(`Invalid JSONata expression: ${problem}`, {
      code: 'invalid_expression',
      transient: false,
    });
  const found = lookupPath(expression, data);
  if (found) return found.value === undefined ? undefined : structuredClone(found.value);
  return sharedPool().evaluate(expression, data, {
    timeoutMs: opts.timeoutMs ?? DEFAULT_EXPRESSION_TIMEOUT_MS,
    signal: opts.signal,
    tenant: opts.tenant,
  });
}
