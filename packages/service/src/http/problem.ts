import type { Problem, ProblemCode, ProblemFieldError } from '@inlay/contract';

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** An error that becomes an `application/problem+json` response. */
export class HttpProblem extends Error {
  readonly status: number;
  readonly code: ProblemCode;
  readonly errors?: ProblemFieldError[];
  readonly extra?: Record<string, unknown>;
  readonly headers?: Record<string, string>;

  constructor(
    status: number,
    code: ProblemCode,
    detail: string,
    opts: {
      errors?: ProblemFieldError[];
      extra?: Record<string, unknown>;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.code = code;
    this.errors = opts.errors;
    this.extra = opts.extra;
    this.headers = opts.headers;
  }

  toBody(instance?: string, requestId?: string): Problem {
    return {
      type: `https://inlay.dev/problems/${this.code.replace(/_/g, '-')}`,
      title: TITLES[this.status] ?? 'Error',
      status: this.status,
      detail: this.message,
      message: this.message,
      code: this.code,
      ...(instance ? { instance } : {}),
      ...(requestId ? { requestId } : {}),
      ...(this.errors ? { errors: this.errors } : {}),
      ...this.extra,
    };
  }
}

export const notFound = (what: string) => new HttpProblem(404, 'not_found', `${what} not found`);
export const unauthorized = (detail = 'A valid API key or user token is required') =>
  new HttpProblem(401, 'unauthorized', detail, { headers: { 'www-authenticate': 'Bearer realm="inlay"' } });
export const forbidden = (detail: string) => new HttpProblem(403, 'forbidden', detail);
export const invalid = (field: string, rule: string, message: string) =>
  new HttpProblem(400, 'invalid_request', `${field}: ${message}`, { errors: [{ field, rule, message }] });
export const unprocessable = (field: string, rule: string, message: string) =>
  new HttpProblem(422, 'unprocessable', `${field}: ${message}`, { errors: [{ field, rule, message }] });
export const conflict = (field: string, message: string) =>
  new HttpProblem(409, 'conflict', `${field}: ${message}`, { errors: [{ field, rule: 'unique', message }] });
