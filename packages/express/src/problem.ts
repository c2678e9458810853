import type { Response } from 'express';

/** Writes an RFC 9457 problem in the shape the service uses, so clients handle one error format. */
export function sendProblem(
  res: Response,
  status: number,
  code: string,
  title: string,
  detail: string,
  errors?: { field: string; rule: string; message: string }[],
): void {
  res
    .status(status)
    .type('application/problem+json')
    .send(
      JSON.stringify({
        type: `https://inlay.dev/problems/${code.replace(/_/g, '-')}`,
        title,
        status,
        detail,
        message: detail,
        code,
        ...(errors?.length ? { errors } : {}),
      }),
    );
}
