import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

/** Echoes a sane incoming `x-request-id`, else mints one. */
export const requestId: RequestHandler = (req, res, next) => {
  const incoming = req.headers['x-request-id'];
  req.requestId = typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
  res.set('x-request-id', req.requestId);
  next();
};
