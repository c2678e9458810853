import { type Span, SpanKind, tracer } from './tracing.ts';

/** A span for one proxy call, a child of the request's; the caller ends it when the answer is sent. */
export function proxySpan(connector: string, method: string): Span {
  return tracer().startSpan(`inlay.proxy ${connector}`, {
    kind: SpanKind.INTERNAL,
    attributes: { 'inlay.connector': connector, 'http.request.method': method },
  });
}
