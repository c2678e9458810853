import type { RequestHandler } from 'express';
import { routeTemplate } from '../metrics/request-metrics.ts';
import { context, propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace, tracer } from './tracing.ts';

/**
 * A server span for each API request, continuing the caller's trace when it sends `traceparent` (a host's
 * backend through @inlay/express, a gateway). Named by the route template once routed; no path, query or header.
 */
export function requestSpans(): RequestHandler {
  const t = tracer();
  return (req, res, next) => {
    // Most requests carry no trace context: the root context then, without running the propagators.
    const parent = req.headers.traceparent ? propagation.extract(ROOT_CONTEXT, req.headers) : ROOT_CONTEXT;
    const span = t.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': req.method } },
      parent,
    );
    if (span.isRecording())
      res.once('close', () => {
        const route = routeTemplate(req);
        span.updateName(`${req.method} ${route}`);
        span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
        if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      });
    // A request the sampler left out still carries its (unsampled) context, so its children are left out too.
    context.with(trace.setSpan(parent, span), next);
  };
}
