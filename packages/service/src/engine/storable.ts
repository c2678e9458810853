import { redact } from '@inlay/connectors';

/** What a step row stores for a value: redacted, NUL-free, and cut to the size cap with a visible marker. */
export interface Stored {
  json: unknown;
  truncated: boolean;
  /** The size of what is stored, in bytes of JSON (a cut value's marker object counts about `maxBytes`). */
  bytes: number;
}

// PostgreSQL's jsonb cannot hold U+0000; a provider may still send it.
function withoutNul(v: unknown): unknown {
  if (typeof v === 'string') return v.includes('\u0000') ? v.replaceAll('\u0000', '\uFFFD') : v;
  if (Array.isArray(v)) return v.map(withoutNul);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, val] of Object.entries(v)) out[withoutNul(k) as string] = withoutNul(val);
    return out;
  }
  return v;
}

/** The first `bytes` bytes of a string, never splitting a character. */
function utf8Prefix(s: string, bytes: number): string {
  const cut = Buffer.from(s, 'utf8').subarray(0, bytes).toString('utf8');
  return cut.endsWith('\uFFFD') && !s.startsWith(cut) ? cut.slice(0, -1) : cut;
}

// Room left for the marker object around the preview.
const MARKER_OVERHEAD = 512;

/**
 * Prepares a value for a step row. Up to `maxBytes` of JSON it is stored whole; beyond, it becomes
 * `{truncated: true, marker, originalBytes, preview}` where `preview` is the start of the JSON text,
 * so a reader sees that and where it was cut instead of losing the output silently.
 */
export function storable(value: unknown, secrets: readonly string[], maxBytes: number): Stored {
  const clean = withoutNul(redact(value === undefined ? null : value, secrets));
  const text = JSON.stringify(clean) ?? 'null';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes <= maxBytes) return { json: clean, truncated: false, bytes };
  const preview = utf8Prefix(text, Math.max(0, maxBytes - MARKER_OVERHEAD));
  return {
    truncated: true,
    bytes: Math.min(bytes, maxBytes),
    json: {
      truncated: true,
      marker: `[truncated: ${bytes} bytes exceed the ${maxBytes}-byte limit; "preview" holds the first ${Buffer.byteLength(preview)} bytes of the JSON]`,
      originalBytes: bytes,
      preview,
    },
  };
}
