import type { ExecutionStatus, LogEntry } from '@inlay/client';
import { Fragment, useId, useState } from 'react';
import { useInlay } from '../hooks/useInlay.ts';
import { useRerun } from '../hooks/useRerun.ts';
import { useWorkflowLogs } from '../hooks/useWorkflowLogs.ts';
import type { MessageKey } from '../i18n/locales/en.ts';
import { type ClassNames, cx, useControllableState } from '../utils.ts';
import { JsonViewer } from './JsonViewer.tsx';
import { Root } from './Root.tsx';
import { codeText, ErrorMessage, ErrorState, Skeleton } from './States.tsx';

export type ExecutionLogsSlot = 'toolbar' | 'table' | 'row' | 'details' | 'pager';

export interface ExecutionLogsProps {
  workflowId: string;
  /** Runs per page, 1..30 (default 10). */
  limit?: number;
  /** Current page, 1-based (controlled); pair with `onPageChange`. */
  page?: number;
  defaultPage?: number;
  onPageChange?: (page: number) => void;
  /** `desc` (newest first, default) or `asc` (controlled); pair with `onOrderChange`. */
  order?: 'asc' | 'desc';
  defaultOrder?: 'asc' | 'desc';
  onOrderChange?: (order: 'asc' | 'desc') => void;
  /** Only runs in this state (controlled); every run when undefined. Pair with `onStatusChange`. */
  status?: ExecutionStatus | '';
  defaultStatus?: ExecutionStatus | '';
  onStatusChange?: (status: ExecutionStatus | '') => void;
  /**
   * Fetch again on its own (default true): every 2 s while a run on the page is queued or running, and for
   * 15 s after mount. `refreshInlay()` refreshes it either way.
   */
  live?: boolean;
  /**
   * The heading above the runs (default "Run history" in the user's language). `null` hides it where the page
   * already says it (the heading stays for screen readers, naming the table).
   */
  title?: string | null;
  className?: string;
  classNames?: ClassNames<ExecutionLogsSlot>;
}

const STATUSES = ['queued', 'running', 'succeeded', 'failed'] as const;

const durationOf = (l: { startedAt: string; stoppedAt?: string }) =>
  l.stoppedAt ? Date.parse(l.stoppedAt) - Date.parse(l.startedAt) : null;

/** A step's output without the seed's wrapping (`[[{id, json, statusCode}]]`): one item's JSON, or the list. */
const unwrap = (data: Result['data']) => {
  const items = data.flat().map((i) => i.json);
  return items.length === 1 ? items[0] : items;
};

/**
 * A workflow's run history: what started each run (trigger kind and summary), start, duration and status,
 * a status filter, paging, live refresh, rerun (linked both ways), and step details.
 */
export function ExecutionLogs(props: ExecutionLogsProps) {
  const { workflowId, classNames: cn = {} } = props;
  const { t, format } = useInlay();
  const limit = Math.min(30, Math.max(1, props.limit ?? 10));
  const [page, setPage] = useControllableState(props.page, props.defaultPage ?? 1, props.onPageChange);
  const [order, setOrder] = useControllableState(
    props.order,
    props.defaultOrder ?? 'desc',
    props.onOrderChange,
  );
  const [filter, setFilter] = useControllableState(
    props.status,
    props.defaultStatus ?? '',
    props.onStatusChange,
  );
  const logs = useWorkflowLogs(
    workflowId,
    { page, limit, order, status: filter || undefined },
    { live: props.live ?? true },
  );
  const rerun = useRerun();
  const [expanded, setExpanded] = useState<string | null>(null);
  const id = useId();
  const rowId = (executionId: string) => `${id}-r-${executionId}`;
  const byId = new Map(logs.data?.map((l) => [l.executionId, l]));
  // "Rerun of the run from …" and "Rerun: …": the linked run's start opens it when it is on this page.
  const runLink = (key: 'rerunOf' | 'rerunAs', executionId: string) => {
    const other = byId.get(executionId);
    const [before, after = ''] = t(key, { time: '\u0000' }).split('\u0000');
    return (
      <span key={executionId} className="inlay-rerun-link">
        {before}
        {other ? (
          <button
            type="button"
            className="inlay-link"
            onClick={() => {
              setExpanded(executionId);
              document.getElementById(rowId(executionId))?.scrollIntoView?.({ block: 'nearest' });
            }}
          >
            {format.date(other.startedAt)}
          </button>
        ) : (
          <code>{executionId.slice(0, 8)}</code>
        )}
        {after}
      </span>
    );
  };

  const status = (s: LogEntry['status']) => <span className={`inlay-badge inlay-status-${s}`}>{t(s)}</span>;

  return (
    <Root className={cx('inlay-logs', props.className)}>
      <div className={cx('inlay-toolbar', cn.toolbar)}>
        <h3 id={`${id}-t`} className={props.title === null ? 'inlay-sr-only' : 'inlay-logs-title'}>
          {props.title ?? t('runs')}
        </h3>
        <label className="inlay-inline">
          {t('status')}{' '}
          <select
            className="inlay-input"
            value={filter}
            onChange={(e) => {
              setFilter(e.target.value as ExecutionStatus | '');
              setPage(1);
            }}
          >
            <option value="">{t('allStatuses')}</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {t(s)}
              </option>
            ))}
          </select>
        </label>
        <label className="inlay-inline">
          {t('order')}{' '}
          <select
            className="inlay-input"
            value={order}
            onChange={(e) => {
              setOrder(e.target.value as 'asc' | 'desc');
              setPage(1);
            }}
          >
            <option value="desc">{t('newestFirst')}</option>
            <option value="asc">{t('oldestFirst')}</option>
          </select>
        </label>
        <button
          type="button"
          className="inlay-button"
          onClick={() => logs.refetch()}
          aria-busy={logs.isFetching || undefined}
        >
          {t('refresh')}
        </button>
      </div>
      <p className={rerun.isSuccess ? 'inlay-notice' : 'inlay-sr-only'} role="status">
        {rerun.isSuccess ? t('rerunStarted') : ''}
      </p>
      {rerun.isError && <ErrorMessage error={rerun.error} />}
      {logs.isPending ? (
        <Skeleton rows={3} />
      ) : logs.isError ? (
        <ErrorState error={logs.error} onRetry={() => logs.refetch()} />
      ) : !logs.data.length && page === 1 && !filter ? (
        <p className="inlay-empty">{t('noRuns')}</p>
      ) : (
        <table className={cx('inlay-table', cn.table)} aria-labelledby={`${id}-t`}>
          <thead>
            <tr>
              <th scope="col">{t('started')}</th>
              <th scope="col">{t('trigger')}</th>
              <th scope="col">{t('duration')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {logs.data.map((l) => {
              const d = durationOf(l);
              const open = expanded === l.executionId;
              const kind = t(`trigger.${l.trigger.type}` as MessageKey);
              const what = l.summary ?? l.trigger.event;
              const when = format.date(l.startedAt);
              return (
                <Fragment key={l.executionId}>
                  <tr id={rowId(l.executionId)} className={cn.row}>
                    <td data-label={t('started')}>
                      <time dateTime={l.startedAt} title={format.relative(l.startedAt)}>
                        {when}
                      </time>
                    </td>
                    <td data-label={t('trigger')}>
                      <div>
                        <span className="inlay-muted">
                          {kind.startsWith('trigger.') ? l.trigger.type : kind}
                        </span>
                        {what && <span className="inlay-summary"> · {what}</span>}
                        {l.rerunOf && <div className="inlay-muted">{runLink('rerunOf', l.rerunOf)}</div>}
                      </div>
                    </td>
                    <td data-label={t('duration')}>{d === null ? '—' : format.duration(d)}</td>
                    <td data-label={t('status')}>{status(l.status)}</td>
                    <td>
                      <div className="inlay-actions">
                        <button
                          type="button"
                          className="inlay-button"
                          aria-expanded={open}
                          aria-controls={open ? `${id}-${l.executionId}` : undefined}
                          aria-label={`${t('details')}: ${when}`}
                          onClick={() => setExpanded(open ? null : l.executionId)}
                        >
                          {t('details')}
                        </button>
                        <button
                          type="button"
                          className="inlay-button"
                          aria-label={`${t('rerun')}: ${when}`}
                          disabled={rerun.isPending && rerun.variables?.executionId === l.executionId}
                          onClick={() => rerun.mutate({ workflowId, executionId: l.executionId })}
                        >
                          {t('rerun')}
                        </button>
                      </div>
                    </td>
                  </tr>
                  {open && (
                    <tr id={`${id}-${l.executionId}`} className={cx('inlay-details', cn.details)}>
                      <td colSpan={5}>
                        {l.reruns.map((r) => (
                          <p key={r}>{runLink('rerunAs', r)}</p>
                        ))}
                        <JsonViewer label={t('triggerData')} value={l.trigger.data} />
                        <Steps entry={l} />
                      </td>
                    </tr>
                  )}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      )}
      {!logs.isPending && !logs.isError && (page > 1 || logs.data.length === limit) && (
        <nav className={cx('inlay-pager', cn.pager)} aria-label={t('runs')}>
          <button
            type="button"
            className="inlay-button"
            disabled={page <= 1}
            onClick={() => setPage(page - 1)}
          >
            {t('previous')}
          </button>
          <span aria-live="polite">{t('page', { page })}</span>
          <button
            type="button"
            className="inlay-button"
            disabled={logs.data.length < limit || logs.isPlaceholderData}
            onClick={() => setPage(page + 1)}
          >
            {t('next')}
          </button>
        </nav>
      )}
    </Root>
  );
}

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

function Steps({ entry }: { entry: LogEntry }) {
  // The run's error repeats its failed step's ("Step 1 failed: …"): shown once, on the step, unless no step has one.
  const shown = entry.results.some((r) => r.error && entry.error?.message.endsWith(r.error.message));
  return (
    <>
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
