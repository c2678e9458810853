import { DrizzleQueryError } from 'drizzle-orm/errors';
import pino, { type Logger } from 'pino';

export type { Logger };

/**
 * Drizzle's failed-query error carries the statement's parameters in its message and its stack: a step's whole
 * input and output, sealed values, hashes. Logged as is, one database outage writes each run's data into the
 * log, a line of up to the step output limit. The log names the statement (shortened) and the cause instead.
 */
export function serializeError(err: unknown): unknown {
  if (!(err instanceof DrizzleQueryError)) return pino.stdSerializers.err(err as Error);
  const statement = err.query.replace(/\s+/g, ' ').trim();
  const short = statement.length > 160 ? `${statement.slice(0, 160)}…` : statement;
  const bare = new Error(`Failed query: ${short}`, { cause: err.cause });
  bare.name = 'DrizzleQueryError';
  // The frames only: the stack's first lines repeat the message, parameters included.
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  bare.stack = [`${bare.name}: ${bare.message}`, ...frames].join('\n');
  // pino names an error by its constructor. The cause's code (`ECONNREFUSED`, `57P01`) is kept, not its detail,
  // which can quote a value (a unique violation's key).
  const code = (err.cause as { code?: unknown } | undefined)?.code;
  return { ...pino.stdSerializers.err(bare), type: bare.name, ...(typeof code === 'string' && { code }) };
}

/** Structured logs; credential-shaped fields are censored wherever they appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'inlay' },
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
