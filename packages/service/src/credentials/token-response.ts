const MAX_TOKEN_RESPONSE_BYTES = 1024 * 1024;

async function readLimited(res: Response): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body ?? []) {
    size += chunk.byteLength;
    if (size > MAX_TOKEN_RESPONSE_BYTES) throw new Error('the token response is larger than 1 MB');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function parseBody(text: string): Record<string, unknown> | undefined {
  try {
    const v = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : undefined;
  } catch {}
  // Some providers answer form-encoded (`access_token=…&token_type=bearer`) whatever Accept says.
  if (/^[\w.-]+=/.test(text.trim()) && /(^|&)(access_token|error)=/.test(text.trim()))
    return Object.fromEntries(new URLSearchParams(text.trim()));
  return undefined;
}

/**
 * A fetch for token endpoints that smooths over providers that bend RFC 6749 before oauth4webapi reads
 * the answer: errors sent with HTTP 200 (`{"error": …}` — GitHub; `{"ok": false, "error": …}` — Slack)
 * become a 400, form-encoded bodies become JSON, and a missing or provider-specific `token_type`
 * (Shopify sends none, Slack says `bot`) reads as `bearer`, which is how every connector sends the token.
 * It also bounds the wait and the body size.
 */
export function normalizeTokenResponses(base: typeof fetch, timeoutMs: number): typeof fetch {
  return (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const signals = [AbortSignal.timeout(timeoutMs)];
    if (init?.signal) signals.push(init.signal);
    const res = await base(input, { ...init, signal: AbortSignal.any(signals) });
    const text = await readLimited(res);
    const headers = new Headers(res.headers);
    headers.delete('content-length');
    headers.delete('content-encoding');
    if ([101, 204, 205, 304].includes(res.status)) return new Response(null, { status: res.status, headers });
    const body = parseBody(text);
    if (!body) return new Response(text, { status: res.status, headers });
    let status = res.status;
    if (typeof body.error === 'object' && body.error !== null) {
      const nested = body.error as { message?: unknown; type?: unknown };
      body.error_description ??= typeof nested.message === 'string' ? nested.message : undefined;
      body.error = typeof nested.type === 'string' ? nested.type : 'error';
    }
    const failed =
      typeof body.error === 'string' && body.error !== '' && typeof body.access_token !== 'string';
    if (failed && status >= 200 && status < 300) status = 400;
    if (typeof body.access_token === 'string') {
      const type = typeof body.token_type === 'string' ? body.token_type.toLowerCase() : '';
      if (type !== 'bearer' && type !== 'dpop') body.token_type = 'bearer';
    }
    headers.set('content-type', 'application/json');
    return new Response(JSON.stringify(body), { status, headers });
  }) as typeof fetch;
}
