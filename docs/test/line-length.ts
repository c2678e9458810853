/** The longest a line of prose may be, outside fenced code blocks: a diff of one cell or one sentence stays small. */
export const MAX_LINE = 200;

/** Lines over `max` characters outside fenced code blocks, as `line: length`, 1-based. */
export function longLines(markdown: string, max = MAX_LINE): { line: number; length: number }[] {
  const out: { line: number; length: number }[] = [];
  let fence: string | undefined;
  markdown.split('\n').forEach((text, i) => {
    const opens = /^\s*(```+|~~~+)/.exec(text);
    if (opens) {
      if (fence === undefined) fence = opens[1]![0];
      else if (opens[1]![0] === fence) fence = undefined;
      return;
    }
    const length = [...text].length;
    if (fence === undefined && length > max) out.push({ line: i + 1, length });
  });
  return out;
}
