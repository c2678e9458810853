import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One exported span as OTLP/JSON encodes it. */
export interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  links?: { traceId: string; spanId: string }[];
}

export type OtlpReceiver = Awaited<ReturnType<typeof startOtlpReceiver>>;

/**
 * An OTLP/HTTP receiver on 127.0.0.1 that keeps every span it is sent (the JSON encoding: set
 * `OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), and every raw body, to search them for what must not be there.
 */
export async function startOtlpReceiver() {
  const spans: OtlpSpan[] = [];
  const bodies: string[] = [];
  const server: Server = createServer(async (req, res) => {
    let raw = '';
    for await (const c of req) raw += c;
    if (req.url === '/v1/traces') {
      bodies.push(raw);
      const doc = JSON.parse(raw) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const rs of doc.resourceSpans) for (const ss of rs.scopeSpans) spans.push(...ss.spans);
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    bodies,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** A span attribute's value, whatever its OTLP type (`stringValue`, `intValue`...). */
export const spanAttr = (s: OtlpSpan, key: string) => {
  const v = s.attributes?.find((a) => a.key === key)?.value;
  return v && Object.values(v)[0];
};
