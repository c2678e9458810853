import { useState } from 'react';
import { useInlay } from '../hooks/useInlay.ts';

const PAGE = 100;
const LONG = 2000;

/**
 * A collapsible JSON tree that renders lazily: a node's children exist in the DOM only once it is expanded,
 * a hundred at a time, and long strings are cut until asked for. A 5 MB result costs one line until opened.
 */
export function JsonViewer({
  value,
  label,
  open = false,
}: {
  value: unknown;
  label?: string;
  open?: boolean;
}) {
  return (
    <div className="inlay-json">
      <Node value={value} name={label} depth={0} defaultOpen={open} />
    </div>
  );
}

function Node({
  value,
  name,
  depth,
  defaultOpen,
}: {
  value: unknown;
  name?: string;
  depth: number;
  defaultOpen?: boolean;
}) {
  const { t, format } = useInlay();
  const [open, setOpen] = useState(!!defaultOpen);
  const [shown, setShown] = useState(PAGE);
  const [full, setFull] = useState(false);
  const key = name !== undefined && <span className="inlay-json-key">{name}: </span>;

  if (value === null || typeof value !== 'object') {
    let text = typeof value === 'string' ? JSON.stringify(value) : String(value);
    const cut = !full && text.length > LONG;
    if (cut) text = `${text.slice(0, LONG)}…`;
    return (
      <div className="inlay-json-leaf">
        {key}
        <span className={`inlay-json-${value === null ? 'null' : typeof value}`}>{text}</span>
        {cut && (
          <button type="button" className="inlay-link" onClick={() => setFull(true)}>
            {t('showMore', { count: String(value).length - LONG })}
          </button>
        )}
      </div>
    );
  }
  const isArray = Array.isArray(value);
  const entries = isArray ? null : Object.keys(value);
  const count = isArray ? value.length : entries!.length;
  const summary = isArray
    ? `[${t(`items.${format.plural(count)}`, { count })}]`
    : `{${t(`keys.${format.plural(count)}`, { count })}}`;
  return (
    <div className="inlay-json-node">
      <button type="button" className="inlay-json-toggle" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span aria-hidden="true">{open ? '▾' : '▸'}</span> {key}
        <span className="inlay-muted">{summary}</span>
      </button>
      {open && (
        <div className="inlay-json-children">
          {Array.from({ length: Math.min(count, shown) }, (_, i) => {
            const k = isArray ? String(i) : entries![i]!;
            return <Node key={k} name={k} value={(value as Record<string, unknown>)[k]} depth={depth + 1} />;
          })}
          {count > shown && (
            <button type="button" className="inlay-link" onClick={() => setShown(shown + PAGE)}>
              {t('showMore', { count: Math.min(PAGE, count - shown) })}
            </button>
          )}
        </div>
      )}
    </div>
  );
}
