import type { LogEntry } from '@inlay/client';
import { useInlay } from '../hooks/useInlay.ts';
import { durationOf } from '../utils.ts';
import { JsonViewer } from './JsonViewer.tsx';
import { codeText } from './States.tsx';

/** A step's output without the seed's wrapping (`[[{id, json, statusCode}]]`): one item's JSON, or the list. */
const unwrap = (data: Result['data']) => {
  const items = data.flat().map((i) => i.json);
  return items.length === 1 ? items[0] : items;
};

type Result = LogEntry['results'][number];
/** A result with its index (into `inputs` too) and, for an `if` or `forEach`, the results nested in it. */
type StepNode = [r: Result, i: number, kids: StepNode[]];

/**
 * Nests results under the `if` or `forEach` occurrence that holds them: the one with the child's
 * `parentStepId` in the same iterations (`iterationPath`, less the last index under a `forEach`), so a loop in
 * a loop running side by side files each result under its own outer iteration. A result without
 * `iterationPath` (an older server) goes under the nearest open parent with that id, which it follows in the log.
 */
function stepTree(results: Result[]): StepNode[] {
  const root: StepNode[] = [];
  const open: StepNode[] = [];
  const placed = new Map<string, StepNode>();
  const at = (id: string | undefined, path: number[]) => `${id}@${path}`;
  const nearestOpen = (id: string) => {
    while (open[0] && open[0][0].stepId !== id) open.shift();
    return open[0];
  };
  results.forEach((r, i) => {
    const node: StepNode = [r, i, []];
    const id = r.parentStepId;
    const path = r.iterationPath ?? (r.iteration === undefined ? [] : undefined);
    const parent = !id
      ? undefined
      : path
        ? (placed.get(at(id, path.slice(0, -1))) ?? placed.get(at(id, path)))
        : nearestOpen(id);
    (parent?.[2] ?? root).push(node);
    open.unshift(node);
    placed.set(at(r.stepId, r.iterationPath ?? []), node);
  });
  return root;
}

/** The error code's sentence (in the user's language), with the provider's own message below it. */
function RunError({ error }: { error: NonNullable<LogEntry['error']> }) {
  const { t } = useInlay();
  const text = codeText(t, error.code);
  return (
    <div className="inlay-field-error">
      <p>{text ?? error.message}</p>
      {text && <p className="inlay-muted">{error.message}</p>}
    </div>
  );
}

/** A run's details: what triggered it, then each step with its input, output and error, nested as it ran. */
export function RunDetails({ entry }: { entry: LogEntry }) {
  const { t } = useInlay();
  // The run's error repeats its failed step's ("Step 1 failed: …"): shown once, on the step, unless no step has one.
  const shown = entry.results.some((r) => r.error && entry.error?.message.endsWith(r.error.message));
  return (
    <>
      <JsonViewer label={t('triggerData')} value={entry.trigger.data} />
      {entry.error && !shown && <RunError error={entry.error} />}
      <StepList entry={entry} nodes={stepTree(entry.results)} />
    </>
  );
}

function StepList({ entry, nodes }: { entry: LogEntry; nodes: StepNode[] }) {
  const { t, format } = useInlay();
  return (
    <ol className="inlay-run-steps">
      {nodes.map(([r, i, kids]) => {
        const d = durationOf(r);
        return (
          <li key={i} className="inlay-run-step">
            <div className="inlay-run-step-head">
              <strong>
                {t('step', {
                  n: i + 1,
                  name:
                    r.name ??
                    ([...new Set([r.connector, r.branch ?? r.action])].filter(Boolean).join(' · ') ||
                      r.connectorId),
                })}
              </strong>
              {r.status && <span className={`inlay-badge inlay-status-${r.status}`}>{t(r.status)}</span>}
              {d !== null && <span className="inlay-muted">{format.duration(d)}</span>}
            </div>
            {r.error && <RunError error={r.error} />}
            {r.truncated && <p className="inlay-muted">{t('truncated')}</p>}
            <JsonViewer label={t('input')} value={entry.inputs[i]?.data} />
            <JsonViewer label={t('output')} value={unwrap(r.data)} />
            <details className="inlay-raw">
              <summary>{t('showRaw')}</summary>
              <JsonViewer value={r.data} />
            </details>
            {r.connector === 'forEach'
              ? // A forEach's steps grouped by iteration, each one collapsible.
                [...new Set(kids.map((k) => k[0].iteration))].map((n) => (
                  <details key={n}>
                    <summary>{t('iteration', { n: n! + 1 })}</summary>
                    <StepList entry={entry} nodes={kids.filter((k) => k[0].iteration === n)} />
                  </details>
                ))
              : kids[0] && <StepList entry={entry} nodes={kids} />}
          </li>
        );
      })}
    </ol>
  );
}
