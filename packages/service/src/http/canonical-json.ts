/**
 * `JSON.stringify(JSON.parse(text))` for JSON the database composed, without parsing it in the common case.
 *
 * PostgreSQL prints `jsonb` with a space after each `:` and `,`; otherwise its text is what `JSON.stringify`
 * makes of the parsed value, except for two things a JavaScript object does differently: numbers it would
 * print another way (`1e+21`, `1e-7`, `1.50`) and keys that are array indices (an object lists them first).
 * This drops the whitespace outside strings in one pass and falls back to the round trip only when it meets
 * one of those. A page of runs is ~70 kB: the round trip costs about ten times the scan.
 */
export function canonicalJson(text: string): string {
  return scan(text) ?? roundTrip(text);
}

/**
 * Several JSON texts joined by `separator`, each as `canonicalJson` makes it: one scan of the whole. The
 * separator must be a control character other than whitespace, which JSON text holds only escaped.
 */
export function canonicalJsonParts(text: string, separator: string): string[] {
  const scanned = scan(text);
  return scanned !== undefined ? scanned.split(separator) : text.split(separator).map(canonicalJson);
}

/** The text without whitespace outside strings, or undefined when only the round trip gets it right. */
function scan(text: string): string | undefined {
  const n = text.length;
  let out = '';
  let from = 0;
  let i = 0;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const start = i;
      i = stringEnd(text, i + 1) + 1;
      // A key made of digits may be an array index, which JavaScript orders before the other keys.
      const first = text.charCodeAt(start + 1);
      if (first >= ZERO && first <= NINE && text.charCodeAt(skipSpace(text, i)) === COLON) return undefined;
    } else if (c === SPACE || c === NEWLINE || c === TAB || c === RETURN) {
      out += text.slice(from, i);
      i = skipSpace(text, i);
      from = i;
    } else if (c === MINUS || (c >= ZERO && c <= NINE)) {
      const start = i;
      while (i < n && isNumberChar(text.charCodeAt(i))) i++;
      const token = text.slice(start, i);
      if (String(Number(token)) !== token) return undefined;
    } else i++;
  }
  return from === 0 ? text : out + text.slice(from);
}

const roundTrip = (text: string) => JSON.stringify(JSON.parse(text));

const [QUOTE, BACKSLASH, COLON, SPACE, NEWLINE, TAB, RETURN, MINUS, ZERO, NINE] = [
  '"',
  '\\',
  ':',
  ' ',
  '\n',
  '\t',
  '\r',
  '-',
  '0',
  '9',
].map((s) => s.charCodeAt(0)) as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];

const isNumberChar = (c: number) =>
  (c >= ZERO && c <= NINE) ||
  c === 0x2e /* . */ ||
  c === 0x65 /* e */ ||
  c === 0x45 /* E */ ||
  c === 0x2b /* + */ ||
  c === MINUS;

const skipSpace = (text: string, i: number) => {
  for (
    let c = text.charCodeAt(i);
    c === SPACE || c === NEWLINE || c === TAB || c === RETURN;
    c = text.charCodeAt(++i)
  );
  return i;
};

/** The index of the quote that closes the string whose first character is at `i`. */
function stringEnd(text: string, i: number): number {
  for (;;) {
    const q = text.indexOf('"', i);
    if (q < 0) throw new SyntaxError('Unterminated string in JSON');
    let slashes = 0;
    while (text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q;
    i = q + 1;
  }
}
