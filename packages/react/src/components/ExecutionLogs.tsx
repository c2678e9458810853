import type { ExecutionStatus, LogEntry } from '@inlay/client';
import { Fragment, useId, useState } from 'react';
import { useInlay } from '../hooks/useInlay.ts';
import { useRerun } from '../hooks/useRerun.ts';
import { useWorkflowLogs } from '../hooks/useWorkflowLogs.ts';
import type { MessageKey } from '../i18n/locales/en.ts';
import { type ClassNames, cx, durationOf, useControllableState } from '../utils.ts';
import { RunDetails, usePreload } from './deferred.tsx';
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
  usePreload(RunDetails);
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
                        <RunDetails entry={l} />
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
