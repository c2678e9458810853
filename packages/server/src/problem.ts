/** One field-level reason of a problem, as the service names them. */
export interface ProblemError {
  field: string;
  rule: string;
  message: string;
}

const PROBLEM_TYPE = 'application/problem+json';

/** An RFC 9457 problem in the shape the service uses, so clients handle one error format. */
export function problem(
  status: number,
  code: string,
  title: string,
  detail: string,
  errors?: ProblemError[],
): Response {
  return problemResponse(status, {
    type: `https://inlay.dev/problems/${code.replace(/_/g, '-')}`,
    title,
    status,
    detail,
    message: detail,
    code,
    ...(errors?.length ? { errors } : {}),
  });
}

/** A problem body as given (the service's own, passed on). */
export function problemResponse(status: number, body: Record<string, unknown>): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': `${PROBLEM_TYPE}; charset=utf-8` },
  });
}
