import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A real v2 client pinned to 2026-07-28 over Streamable HTTP. */
export async function connectV2(url: string, headers: Record<string, string>) {
  const client = new ClientV2(
    { name: 'inlay-test-v2', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  await client.connect(new TransportV2(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A real v1 client: legacy `initialize` handshake. */
export async function connectV1(url: string, headers: Record<string, string>) {
  const client = new ClientV1({ name: 'inlay-test-v1', version: '1.0.0' });
  const transport = new TransportV1(new URL(url), { requestInit: { headers } });
  await client.connect(transport);
  return { client, transport };
}

/** A raw JSON-RPC POST, for the HTTP cases real clients never produce. */
export async function rawRpc(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, text };
}

/** Parses a JSON or SSE response body into its JSON-RPC messages. */
export function rpcMessages(text: string, contentType: string | null): any[] {
  if (contentType?.includes('text/event-stream'))
    return text
      .split('\n')
      .filter((l) => l.startsWith('data:'))
      .map((l) => JSON.parse(l.slice(5)));
  return [JSON.parse(text)];
}
