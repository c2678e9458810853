/**
 * Deepest JSON nesting a request body may have. Real payloads stay far below it; a body nested thousands of
 * levels deep only serves to overflow a recursive walk (JSON.stringify, a validator) somewhere downstream.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether JSON text (a string or its UTF-8 bytes) nests objects and arrays deeper than `max`, by one pass
 * over the text before it is parsed: brackets inside strings do not count. Invalid JSON is left to the parser.
 */
export function jsonTextTooDeep(text: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? undefined : text;
  const length = text.length;
  const at = (i: number) => (bytes ? bytes[i]! : (text as string).charCodeAt(i));
  let depth = 0;
  let inString = false;
  for (let i = 0; i < length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

/** Whether a parsed value nests objects and arrays deeper than `max` (iterative: any depth is safe to ask). */
export function valueTooDeep(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, d + 1]);
  }
  return false;
}
