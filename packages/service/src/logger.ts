import { DrizzleQueryError } from 'drizzle-orm/errors';
import pino, { type Logger } from 'pino';
import { traceIds } from './tracing/tracing.ts';

export type { Logger };

/**
 * Drizzle's failed-query error carries the statement's parameters in its message and its stack: a step's whole
 * input and output, sealed values, hashes. Logged as is, one database outage writes each run's data into the
 * log, a line of up to the step output limit. The log names the statement (shortened) and the cause instead,
 * wherever the failed query sits in the error's chain of causes (pino prints every cause's message and stack).
 */
export function serializeError(err: unknown): unknown {
  if (!hasFailedQuery(err)) return pino.stdSerializers.err(err as Error);
  const safe = withoutParams(err as Error);
  const serialized = pino.stdSerializers.err(safe);
  if (!(err instanceof DrizzleQueryError)) return serialized;
  // pino names an error by its constructor. The cause's code (`ECONNREFUSED`, `57P01`) is kept, not its detail,
  // which can quote a value (a unique violation's key).
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return { ...serialized, type: safe.name, ...(typeof code === 'string' && { code }) };
}

/** Whether a failed query is the error or one of its causes (a cycle or a deep chain ends the walk). */
function hasFailedQuery(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 10; e = e.cause, depth++) {
    if (e instanceof DrizzleQueryError) return true;
  }
  return false;
}

/** The error with each failed query in its chain replaced by one without parameters; the original is untouched. */
function withoutParams(err: Error, depth = 0): Error {
  const cause = err.cause instanceof Error && depth < 10 ? withoutParams(err.cause, depth + 1) : err.cause;
  if (err instanceof DrizzleQueryError) {
    const statement = err.query.replace(/\s+/g, ' ').trim();
    const short = statement.length > 160 ? `${statement.slice(0, 160)}…` : statement;
    const bare = new Error(`Failed query: ${short}`, { cause });
    bare.name = 'DrizzleQueryError';
    // The frames only: the stack's first lines repeat the message, parameters included.
    const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
    bare.stack = [`${bare.name}: ${bare.message}`, ...frames].join('\n');
    return bare;
  }
  if (cause === err.cause) return err;
  // A copy of the wrapper (same prototype, so pino names it the same) around the mended cause.
  const copy = Object.create(Object.getPrototypeOf(err)) as Error;
  for (const key of Reflect.ownKeys(err)) {
    Object.defineProperty(copy, key, Object.getOwnPropertyDescriptor(err, key)!);
  }
  Object.defineProperty(copy, 'cause', { value: cause, writable: true, configurable: true });
  return copy;
}

/** Structured logs; credential-shaped fields are censored wherever they appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'inlay' },
      // Inside a span (when tracing is on) each line names it, so logs join traces.
      mixin: traceIds,
      serializers: { err: serializeError },
      redact: {
        paths: [
          'authorization',
          '*.authorization',
          'headers.authorization',
          '*.headers.authorization',
          'apiKey',
          '*.apiKey',
          'accessToken',
          '*.accessToken',
          'refreshToken',
          '*.refreshToken',
          'clientSecret',
          '*.clientSecret',
          'token',
          '*.token',
          'password',
          '*.password',
          'secret',
          '*.secret',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}
