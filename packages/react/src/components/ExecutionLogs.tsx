'use client';
import type { LogEntry } from '@inlay/client';
import { Fragment, useId, useState } from 'react';
import { useInlay } from '../hooks/useInlay.ts';
import { useRerun } from '../hooks/useRerun.ts';
import { useWorkflowLogs } from '../hooks/useWorkflowLogs.ts';
import { type ClassNames, cx, useControllableState } from '../utils.ts';
import { JsonViewer } from './JsonViewer.tsx';
import { Root } from './Root.tsx';
import { ErrorMessage, ErrorState, Skeleton } from './States.tsx';

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
  /**
   * Fetch again on its own (default true): every 2 s while a run on the page is queued or running, and for
   * 15 s after mount. `refreshInlay()` refreshes it either way.
   */
  live?: boolean;
  className?: string;
  classNames?: ClassNames<ExecutionLogsSlot>;
}

const durationOf = (l: LogEntry) => (l.stoppedAt ? Date.parse(l.stoppedAt) - Date.parse(l.startedAt) : null);

/** A workflow's run history: start, duration and status per run, paging, refresh, rerun, and step details. */
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
  const logs = useWorkflowLogs(workflowId, { page, limit, order }, { live: props.live ?? true });
  const rerun = useRerun();
  const [expanded, setExpanded] = useState<string | null>(null);
  const id = useId();

  const status = (s: LogEntry['status']) => <span className={`inlay-badge inlay-status-${s}`}>{t(s)}</span>;

  return (
    <Root className={cx('inlay-logs', props.className)}>
      <div className={cx('inlay-toolbar', cn.toolbar)}>
        <h3 id={`${id}-t`} className="inlay-logs-title">
          {t('runs')}
        </h3>
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
      <p className="inlay-sr-only" role="status">
        {rerun.isSuccess ? t('rerunStarted') : ''}
      </p>
      {rerun.isError && <ErrorMessage error={rerun.error} />}
      {logs.isPending ? (
        <Skeleton rows={3} />
      ) : logs.isError ? (
        <ErrorState error={logs.error} onRetry={() => logs.refetch()} />
      ) : !logs.data.length && page === 1 ? (
        <p className="inlay-empty">{t('noRuns')}</p>
      ) : (
        <table className={cx('inlay-table', cn.table)} aria-labelledby={`${id}-t`}>
          <thead>
            <tr>
              <th scope="col">{t('started')}</th>
              <th scope="col">{t('duration')}</th>
              <th scope="col">{t('status')}</th>
              <th scope="col">{t('actions')}</th>
            </tr>
          </thead>
          <tbody>
            {logs.data.map((l) => {
              const d = durationOf(l);
              const open = expanded === l.executionId;
              return (
                <Fragment key={l.executionId}>
                  <tr className={cn.row}>
                    <td data-label={t('started')}>
                      <time dateTime={l.startedAt} title={format.relative(l.startedAt)}>
                        {format.date(l.startedAt)}
                      </time>
                    </td>
                    <td data-label={t('duration')}>{d === null ? '—' : format.duration(d)}</td>
                    <td data-label={t('status')}>{status(l.status)}</td>
                    <td>
                      <div className="inlay-actions">
                        <button
                          type="button"
                          className="inlay-button inlay-button-ghost"
                          aria-expanded={open}
                          aria-controls={open ? `${id}-${l.executionId}` : undefined}
                          aria-label={`${t('details')}: ${format.date(l.startedAt)}`}
                          onClick={() => setExpanded(open ? null : l.executionId)}
                        >
                          {t('details')}
                        </button>
                        <button
                          type="button"
                          className="inlay-button"
                          aria-label={`${t('rerun')}: ${format.date(l.startedAt)}`}
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
                      <td colSpan={4}>
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
 * Nests results under the `if` or `forEach` that holds them (`parentStepId`): a step follows its parent in
 * the log, so the nearest open parent with that id is the one.
 */
function stepTree(results: Result[]): StepNode[] {
  const root: StepNode[] = [];
  const open: StepNode[] = [];
  results.forEach((r, i) => {
    const node: StepNode = [r, i, []];
    while (open[0] && open[0][0].stepId !== r.parentStepId) open.shift();
    (open[0]?.[2] ?? root).push(node);
    open.unshift(node);
  });
  return root;
}

function Steps({ entry }: { entry: LogEntry }) {
  return (
    <>
      {entry.error && <p className="inlay-field-error">{entry.error.message}</p>}
      <StepList entry={entry} nodes={stepTree(entry.results)} />
    </>
  );
}

function StepList({ entry, nodes }: { entry: LogEntry; nodes: StepNode[] }) {
  const { t, format } = useInlay();
  return (
    <ol className="inlay-run-steps">
      {nodes.map(([r, i, kids]) => {
        const d = r.stoppedAt ? Date.parse(r.stoppedAt) - Date.parse(r.startedAt) : null;
        return (
          <li key={i} className="inlay-run-step">
            <div className="inlay-run-step-head">
              <strong>
                {t('step', {
                  n: i + 1,
                  name:
                    [...new Set([r.connector, r.branch ?? r.action])].filter(Boolean).join(' · ') ||
                    r.connectorId,
                })}
              </strong>
              {r.status && <span className={`inlay-badge inlay-status-${r.status}`}>{t(r.status)}</span>}
              {d !== null && <span className="inlay-muted">{format.duration(d)}</span>}
            </div>
            {r.error && <p className="inlay-field-error">{r.error.message}</p>}
            {r.truncated && <p className="inlay-muted">{t('truncated')}</p>}
            <JsonViewer label={t('input')} value={entry.inputs[i]?.data} />
            <JsonViewer label={t('output')} value={r.data} />
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
