import { storable } from '../engine/storable.ts';

/**
 * A structured result up to this size is repeated as JSON text in `content` (for clients that read only
 * text); a larger one is sent once, in `structuredContent`, with a short note and a preview in `content`.
 */
export const INLINE_TEXT_BYTES = 64 * 1024;
const PREVIEW_BYTES = 4 * 1024;

// Room for the rest of a result around a capped value (ids, status code, the truncation marker).
const ENVELOPE_BYTES = 1024;

/**
 * A value cut to fit a result capped at `maxBytes` (`INLAY_MAX_STEP_OUTPUT_BYTES`), exactly as an
 * execution log cuts a step's output: whole when it fits, else `{truncated, marker, originalBytes, preview}`.
 */
export function capValue(value: unknown, maxBytes: number): { value: unknown; truncated: boolean } {
  const s = storable(value, [], Math.max(ENVELOPE_BYTES, maxBytes - ENVELOPE_BYTES));
  return { value: s.json, truncated: s.truncated };
}

export interface ToolResult {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  [key: string]: unknown;
}

export const failure = (message: string): ToolResult => ({
  content: [{ type: 'text', text: message }],
  isError: true,
});

/**
 * The result of a tool: at most `maxBytes` of JSON, never the same large body twice. `fit` shrinks a result
 * that is too large (cuts the output); one that still does not fit is a tool error, not a huge response.
 */
export function toolResult<T extends Record<string, unknown>>(
  out: T,
  maxBytes: number,
  fit?: (out: T, maxBytes: number) => T,
): ToolResult {
  let text = JSON.stringify(out);
  let bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > maxBytes && fit) {
    out = fit(out, maxBytes);
    text = JSON.stringify(out);
    bytes = Buffer.byteLength(text, 'utf8');
  }
  if (bytes > maxBytes)
    return failure(
      `The result is ${bytes} bytes, over the ${maxBytes}-byte cap (INLAY_MAX_STEP_OUTPUT_BYTES); ask for less (a smaller page or limit).`,
    );
  if (bytes <= INLINE_TEXT_BYTES) return { content: [{ type: 'text', text }], structuredContent: out };
  const preview = Buffer.from(text, 'utf8').subarray(0, PREVIEW_BYTES).toString('utf8');
  return {
    content: [
      {
        type: 'text',
        text: `The result (${bytes} bytes of JSON) is in structuredContent; it is not repeated here. It begins: ${preview}…`,
      },
    ],
    structuredContent: out,
  };
}
