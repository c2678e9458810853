export const PAGE_SIZE = 50;

/** Opaque list cursors: an offset, base64url-encoded so clients treat it as a token. */
export function decodeCursor(cursor: string | undefined): number {
  if (!cursor) return 0;
  try {
    const { o } = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { o?: unknown };
    return Number.isInteger(o) && (o as number) >= 0 ? (o as number) : 0;
  } catch {
    return 0;
  }
}

export function page<T>(
  items: T[],
  cursor: string | undefined,
  size = PAGE_SIZE,
): { items: T[]; nextCursor?: string } {
  const offset = decodeCursor(cursor);
  const slice = items.slice(offset, offset + size);
  const next =
    offset + size < items.length
      ? Buffer.from(JSON.stringify({ o: offset + size })).toString('base64url')
      : undefined;
  return { items: slice, ...(next ? { nextCursor: next } : {}) };
}
