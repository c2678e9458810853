import { inArray, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db } from './store.ts';

/**
 * Deletes the rows of `table` that `where` selects, `batch` at a time, so no statement holds many locks; rows
 * another transaction holds (another node purging) are skipped. Returns how many were deleted.
 */
export async function deleteInBatches(
  db: Db,
  table: PgTable,
  id: AnyPgColumn,
  where: SQL | undefined,
  batch: number,
): Promise<number> {
  let deleted = 0;
  for (;;) {
    const chosen = db
      .select({ id })
      .from(table)
      .where(where)
      .limit(batch)
      .for('update', { skipLocked: true });
    const gone = await db.delete(table).where(inArray(id, chosen)).returning({ id });
    deleted += gone.length;
    if (gone.length < batch) return deleted;
  }
}
