import { type ReactNode, type RefObject, useEffect, useRef, useState } from 'react';
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
  const wrap = useRef<HTMLDivElement>(null);
  const scrolls = useScrolls(wrap);
  return (
    // A table wider than the window scrolls in its wrapper, which then takes the focus so the keyboard can
    // scroll it (axe: scrollable-region-focusable), named after the table.
    <div
      ref={wrap}
      className="table-wrap"
      {...(scrolls
        ? { tabIndex: 0, role: 'region', 'aria-label': caption, 'aria-labelledby': labelledBy }
        : {})}
    >
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

/** Whether the element's content is wider than it, kept up to date as either changes size. */
function useScrolls(ref: RefObject<HTMLElement | null>) {
  const [scrolls, setScrolls] = useState(false);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const check = () => setScrolls(el.scrollWidth > el.clientWidth);
    const observer = new ResizeObserver(check);
    observer.observe(el);
    if (el.firstElementChild) observer.observe(el.firstElementChild);
    return () => observer.disconnect();
  }, [ref]);
  return scrolls;
}
