/** A PostgreSQL unique violation (SQLSTATE 23505), however deep the driver or drizzle wraps it in `cause`. */
export function isUniqueViolation(err: unknown): boolean {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505') return true;
    e = e.cause as typeof e;
  }
  return false;
}
