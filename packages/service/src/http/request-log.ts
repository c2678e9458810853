import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { routeLabel } from './route-label.ts';

export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const start = process.hrtime.bigint();
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      const level = res.statusCode >= 500 ? 'error' : 'info';
      logger[level]({
        reqId: req.requestId,
        method: req.method,
        route: routeLabel(req),
        status: res.statusCode,
        ms: Math.round(ms * 100) / 100,
        principal: req.principal?.kind,
        accountId: req.principal?.accountId,
      });
    });
    next();
  };
}
