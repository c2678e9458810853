import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { HttpProblem } from './problem.ts';
import { routeLabel } from './route-label.ts';

/** The size the parser enforced (body-parser puts it on the error): 1 MB for the API, more for the proxy. */
function sizeLimit(err: unknown): string {
  const limit = (err as { limit?: unknown })?.limit;
  if (typeof limit !== 'number' || limit <= 0) return '1 MB';
  return limit % 1024 ** 2 === 0 ? `${limit / 1024 ** 2} MB` : `${limit} bytes`;
}

const BODY_ERRORS: Record<string, (err: unknown) => HttpProblem> = {
  'entity.too.large': (err) =>
    new HttpProblem(413, 'payload_too_large', `The request body exceeds the ${sizeLimit(err)} limit`, {
      errors: [{ field: 'body', rule: 'max_size', message: `must be at most ${sizeLimit(err)}` }],
    }),
  'entity.parse.failed': () =>
    new HttpProblem(400, 'invalid_request', 'The request body is not valid JSON', {
      errors: [{ field: 'body', rule: 'json', message: 'must be a JSON object or array' }],
    }),
  'encoding.unsupported': () =>
    new HttpProblem(415, 'unsupported_media_type', 'Unsupported content encoding', {
      errors: [
        { field: 'header.content-encoding', rule: 'enum', message: 'must be identity, gzip or deflate' },
      ],
    }),
  'charset.unsupported': () =>
    new HttpProblem(415, 'unsupported_media_type', 'Unsupported charset', {
      errors: [{ field: 'header.content-type', rule: 'charset', message: 'must be utf-8' }],
    }),
  'request.aborted': () => new HttpProblem(400, 'invalid_request', 'The request was aborted'),
  'request.size.invalid': () =>
    new HttpProblem(400, 'invalid_request', 'The body length does not match Content-Length', {
      errors: [{ field: 'header.content-length', rule: 'match', message: 'must match the body length' }],
    }),
};

const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08006',
]);

/** Database unreachable: the caller should retry, not see a 500. */
export function isUnavailable(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (UNAVAILABLE_CODES.has(e.code)) return true;
    const msg = String(e.message ?? '');
    if (
      /Connection terminated|timeout exceeded when trying to connect|Query read timeout|connect ECONNREFUSED|Client has encountered a connection error|Cannot use a pool after calling end/i.test(
        msg,
      )
    )
      return true;
  }
  return false;
}

// PostgreSQL data exceptions a request value can cause (a NUL byte in a path segment, a number out of range).
const BAD_VALUE_CODES = new Set(['22021', '22P05', '22P02', '22003', '22007', '22008']);

/** Found by the fuzz tests: such a value reached the database, which refused it; the caller sent bad input. */
function isBadValue(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 5; e = e.cause, depth++)
    if (BAD_VALUE_CODES.has(e.code)) return true;
  return false;
}

export function toProblem(err: unknown): HttpProblem | undefined {
  if (err instanceof HttpProblem) return err;
  if (isBadValue(err))
    return new HttpProblem(
      400,
      'invalid_request',
      'A value in the request is not valid text or is out of range',
      {
        errors: [
          {
            field: 'request',
            rule: 'value',
            message: 'contains a NUL byte, invalid text or an out-of-range value',
          },
        ],
      },
    );
  const type = (err as { type?: string })?.type;
  if (type && BODY_ERRORS[type]) return BODY_ERRORS[type](err);
  if (isUnavailable(err))
    return new HttpProblem(503, 'unavailable', 'The service is temporarily unavailable; retry shortly', {
      headers: { 'retry-after': '5' },
    });
  const status = (err as { status?: number })?.status;
  if (typeof status === 'number' && status >= 400 && status < 500)
    return new HttpProblem(status, 'invalid_request', 'The request could not be processed');
  return undefined;
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    let problem = toProblem(err);
    if (!problem) {
      logger.error({ reqId: req.requestId, err }, 'unhandled error');
      problem = new HttpProblem(500, 'internal', 'An internal error occurred; it has been logged');
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    if (problem.headers) res.set(problem.headers);
    res
      .status(problem.status)
      .type('application/problem+json')
      .send(JSON.stringify(problem.toBody(routeLabel(req), req.requestId)));
  };
}

export const notFoundRoute: RequestHandler = (req) => {
  throw new HttpProblem(404, 'not_found', `No route ${req.method} ${routeLabel(req)}`);
};
