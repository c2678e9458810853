/**
 * Headers the transport owns: the target and the framing of the message (`host`, `content-length`,
 * `transfer-encoding`, `te`, `trailer`), the connection (`connection`, `keep-alive`, `upgrade`) and any
 * proxy's (`proxy-*`). A caller that set them could smuggle a second request, reach another virtual host
 * than the URL names, or talk to a proxy on the path: no step, action or connector may.
 */
const OWNED = new Set([
  'host',
  'content-length',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
]);

// RFC 9110 token characters.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Why a request header may not be sent as given; undefined when it may. */
export function requestHeaderProblem(name: string, value: string): string | undefined {
  const lower = name.toLowerCase();
  if (!TOKEN.test(name)) return 'is not a valid header name';
  if (OWNED.has(lower) || lower.startsWith('proxy-'))
    return 'may not be set: the transport sets it (host, content-length, transfer-encoding, connection, keep-alive, upgrade, te, trailer and proxy-* are reserved)';
  if (/[\r\n\0]/.test(value)) return 'must not contain CR, LF or NUL';
  return undefined;
}
