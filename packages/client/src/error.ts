import type { Problem, ProblemFieldError } from '@inlay/contract';

/** `code` values the client adds for failures that never reached the service. */
export type ClientErrorCode = 'network_error' | 'invalid_response';

/**
 * Every failed call rejects with an `InlayError`. It carries the RFC 9457 problem fields the service
 * answered (`status`, `code`, `title`, `detail`, `errors`, ...); a network failure has `status` 0.
 */
export class InlayError extends Error {
  override name = 'InlayError';
  readonly status: number;
  readonly code: Problem['code'] | ClientErrorCode;
  readonly type: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: ProblemFieldError[];
  readonly requestId?: string;
  readonly instance?: string;
  readonly supportedVersions?: string[];
  /** The problem body as received, when there was one. */
  readonly problem?: Problem;

  constructor(problem: Partial<Problem> & { status: number }, options?: { cause?: unknown }) {
    const detail = problem.detail ?? problem.message ?? problem.title ?? `HTTP ${problem.status}`;
    super(detail, options);
    this.status = problem.status;
    this.code = (problem.code as InlayError['code']) ?? codeOf(problem.status);
    this.type = problem.type ?? 'about:blank';
    this.title = problem.title ?? detail;
    this.detail = detail;
    this.errors = problem.errors ?? [];
    this.requestId = problem.requestId;
    this.instance = problem.instance;
    this.supportedVersions = problem.supportedVersions;
    if (problem.type && problem.code) this.problem = problem as Problem;
  }

  /** Field errors keyed by their path (`body.values[0].fields[1].value`), first message wins. */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {};
    for (const e of this.errors) out[e.field] ??= e.message;
    return out;
  }
}

/** `true` for an `InlayError`, also across bundle copies of this package. */
export const isInlayError = (err: unknown): err is InlayError =>
  err instanceof InlayError || (err as { name?: unknown } | null)?.name === 'InlayError';

function codeOf(status: number): InlayError['code'] {
  if (status === 0) return 'network_error';
  const codes: Record<number, Problem['code']> = {
    400: 'invalid_request',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    413: 'payload_too_large',
    415: 'unsupported_media_type',
    422: 'unprocessable',
    429: 'rate_limited',
    502: 'upstream_error',
    503: 'unavailable',
  };
  return codes[status] ?? (status >= 500 ? 'internal' : 'invalid_request');
}
