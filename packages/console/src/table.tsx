import type { ReactNode } from 'react';
import { ErrorText } from './ui.tsx';

/** A column heading; `{hidden}` is read to screen readers only (e.g. a column of buttons). */
export type Column = string | { hidden: string };

/**
 * A table in its horizontally scrolling wrapper, with column headings and a name: `caption` (read to screen
 * readers only) or `labelledBy`, the id of a visible heading.
 */
export function Table({
  caption,
  labelledBy,
  columns,
  children,
}: {
  caption?: string;
  labelledBy?: string;
  columns: Column[];
  children: ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table aria-labelledby={labelledBy}>
        {caption ? <caption className="sr-only">{caption}</caption> : null}
        <thead>
          <tr>
            {columns.map((c) =>
              typeof c === 'string' ? (
                <th scope="col" key={c}>
                  {c}
                </th>
              ) : (
                <th scope="col" key={c.hidden}>
                  <span className="sr-only">{c.hidden}</span>
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}

/** What a list query shows besides its rows: its error, a loading line, or `empty` when it has none. */
export function QueryState({
  query,
  empty,
}: {
  query: { error: unknown; isPending: boolean; data?: readonly unknown[] };
  empty?: string;
}) {
  if (query.error) return <ErrorText error={query.error} />;
  if (query.isPending) return <p className="loading">Loading…</p>;
  if (empty && query.data?.length === 0) return <p className="muted">{empty}</p>;
  return null;
}
