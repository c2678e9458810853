import pino, { type Logger } from 'pino';

export type { Logger };

/** Structured logs; credential-shaped fields are censored wherever they appear. */
export function createLogger(level: string, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: 'inlay' },
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
