import type { RequestHandler } from 'express';
import { routeTemplate } from '../metrics/request-metrics.ts';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, tracer } from './tracing.ts';

/**
 * A server span for each API request, continuing the caller's trace when it sends `traceparent` (a host's
 * backend through @inlay/express, a gateway). Named by the route template once routed; no path, query or header.
 */
export function requestSpans(): RequestHandler {
  return (req, res, next) => {
    const parent = propagation.extract(ROOT_CONTEXT, req.headers);
    const span = tracer().startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    res.on('close', () => {
      const route = routeTemplate(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(trace.setSpan(parent, span), next);
  };
}
