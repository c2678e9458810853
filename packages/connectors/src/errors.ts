/** Base of errors a connector call raises; `transient` tells the engine whether a retry may help. */
export class ConnectorError extends Error {
  readonly code: string;
  readonly transient: boolean;
  readonly statusCode?: number;
  readonly retryAfterMs?: number;
  readonly body?: unknown;
  /** The provider refused the credential (401, a connector-marked 403, an auth error in a 2xx). */
  readonly authFailure: boolean;

  constructor(
    message: string,
    opts: {
      code: string;
      transient: boolean;
      statusCode?: number;
      retryAfterMs?: number;
      body?: unknown;
      authFailure?: boolean;
    },
  ) {
    super(message);
    this.name = 'ConnectorError';
    this.code = opts.code;
    this.transient = opts.transient;
    this.statusCode = opts.statusCode;
    this.retryAfterMs = opts.retryAfterMs;
    this.body = opts.body;
    this.authFailure = opts.authFailure ?? false;
  }
}

export const isTransientStatus = (status: number) =>
  status === 408 || status === 425 || status === 429 || status >= 500;

/** Parses `Retry-After` (seconds or an HTTP date) into milliseconds. */
export function parseRetryAfter(value: string | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}
