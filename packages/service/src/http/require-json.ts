import type { RequestHandler } from 'express';
import { HttpProblem } from './problem.ts';

/** A request that carries a body must carry JSON. */
export const requireJson: RequestHandler = (req, _res, next) => {
  const hasBody =
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && ['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method) && !req.is('application/json')) {
    throw new HttpProblem(415, 'unsupported_media_type', 'Request bodies must be application/json', {
      errors: [{ field: 'header.content-type', rule: 'enum', message: 'must be application/json' }],
    });
  }
  next();
};
