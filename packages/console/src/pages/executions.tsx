import type { ExecutionsQuery } from '@inlay/client';
import { useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { attempts } from '../labels.ts';
import { Link, navigate, usePath } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { TimeRangeFields } from '../time-range-fields.tsx';
import { ErrorText, formatMs, formatTime, Json, StatusBadge } from '../ui.tsx';

const FILTERS = ['status', 'workflowId', 'userId', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;

function filtersOf(search: string): Filters {
  const p = new URLSearchParams(search);
  return Object.fromEntries(FILTERS.flatMap((k) => (p.get(k) ? [[k, p.get(k)!]] : [])));
}

/** `datetime-local` values are read as UTC, like every time the console shows. */
const toIso = (local: string | undefined) => (local ? new Date(`${local}:00.000Z`).toISOString() : undefined);

export function ExecutionsPage() {
  const { client } = useConsole();
  const path = usePath();
  const filters = filtersOf(path.split('?')[1] ?? '');
  const query: ExecutionsQuery = {
    status: filters.status,
    workflowId: filters.workflowId,
    userId: filters.userId,
    from: toIso(filters.from),
    to: toIso(filters.to),
    limit: '25',
  };
  const list = useInfiniteQuery({
    queryKey: ['executions', query],
    queryFn: ({ pageParam }) => client.executions.list({ ...query, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(e.currentTarget))
      if (typeof v === 'string' && v.trim()) p.set(k, v.trim());
    navigate(`/executions${p.size ? `?${p}` : ''}`);
  };
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  // The workflow filter picks by name; the ids are the account's workflows (deleted ones keep their runs).
  const workflows = useQuery({ queryKey: ['workflows'], queryFn: () => client.workflows.listAll() });
  const picked = filters.workflowId;
  const unknownPick = picked && workflows.data && !workflows.data.some((w) => w.workflowId === picked);
  return (
    <>
      <h1>Executions</h1>
      <form className="card filters" onSubmit={onSubmit} aria-label="Filter executions" key={path}>
        <label>
          Status
          <select name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any</option>
            <option value="failed">Failed</option>
            <option value="succeeded">Succeeded</option>
            <option value="running">Running</option>
            <option value="queued">Queued</option>
          </select>
        </label>
        <label>
          User (id or username)
          <input name="userId" defaultValue={filters.userId ?? ''} />
        </label>
        <label>
          Workflow
          {/* Keyed by the list: a select's default applies once, and the options come after the first render. */}
          <select name="workflowId" defaultValue={picked ?? ''} key={workflows.data ? 'named' : 'loading'}>
            <option value="">Any</option>
            {workflows.data?.map((w) => (
              <option key={w.workflowId} value={w.workflowId}>
                {w.name}
              </option>
            ))}
            {picked && (unknownPick || !workflows.data) ? (
              <option value={picked}>
                {unknownPick ? `Deleted workflow ${picked.slice(0, 8)}` : picked}
              </option>
            ) : null}
          </select>
        </label>
        <TimeRangeFields from={filters.from} to={filters.to} clearTo="/executions" />
      </form>
      <QueryState
        query={{ error: list.error, isPending: list.isPending, data: list.data && rows }}
        empty="No runs match these filters."
      />
      {rows.length ? (
        <Table
          caption="Runs, newest first"
          columns={['Started (UTC)', 'Status', 'Workflow', 'User', 'Trigger', 'Duration']}
        >
          {rows.map((e) => (
            <tr key={e.executionId}>
              <td>
                <Link to={`/executions/${e.executionId}`}>{formatTime(e.startedAt)}</Link>
              </td>
              <td>
                <StatusBadge status={e.status} />
              </td>
              <td>
                <Link to={`/executions?workflowId=${e.workflowId}`}>{e.workflowName ?? e.workflowId}</Link>
              </td>
              <td>
                <Link to={`/executions?userId=${encodeURIComponent(e.username)}`}>{e.username}</Link>
              </td>
              <td>{e.event ?? e.triggerType}</td>
              <td>{formatMs(e.durationMs)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
      {list.hasNextPage ? (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? 'Loading…' : 'Load more'}
        </button>
      ) : null}
    </>
  );
}

export function ExecutionDetail({ executionId }: { executionId: string }) {
  const { client } = useConsole();
  const q = useQuery({
    queryKey: ['execution', executionId],
    queryFn: () => client.executions.get(executionId),
  });
  const rerun = useMutation({
    mutationFn: () => client.workflows.rerun(q.data!.workflowId, executionId, { userId: q.data!.userId }),
    onSuccess: (r) => navigate(`/executions/${r.executionId}`),
  });
  if (q.error) return <ErrorText error={q.error} />;
  if (!q.data) return <p className="loading">Loading…</p>;
  const e = q.data;
  return (
    <>
      <p>
        <Link to="/executions">← All executions</Link>
      </p>
      <h1>
        Run of {e.workflowName ?? e.workflowId} <StatusBadge status={e.status} />
      </h1>
      <dl className="facts card">
        <dt>Execution</dt>
        <dd className="mono">{e.executionId}</dd>
        <dt>User</dt>
        <dd>
          <Link to={`/executions?userId=${encodeURIComponent(e.username)}`}>{e.username}</Link>
        </dd>
        <dt>Version</dt>
        <dd>{e.version}</dd>
        <dt>Started</dt>
        <dd>{formatTime(e.startedAt)}</dd>
        <dt>Stopped</dt>
        <dd>{e.stoppedAt ? formatTime(e.stoppedAt) : '—'}</dd>
        {e.rerunOf ? (
          <>
            <dt>Re-ran</dt>
            <dd>
              <Link to={`/executions/${e.rerunOf}`}>{e.rerunOf}</Link>
            </dd>
          </>
        ) : null}
      </dl>
      {e.error ? (
        <p className="error" role="alert">
          {e.error.code ? `${e.error.code}: ` : ''}
          {e.error.message}
        </p>
      ) : null}
      <div className="actions">
        <button
          type="button"
          onClick={() => rerun.mutate()}
          disabled={e.status === 'queued' || e.status === 'running' || rerun.isPending}
        >
          {rerun.isPending ? 'Starting…' : 'Rerun'}
        </button>
      </div>
      {rerun.error ? <ErrorText error={rerun.error} /> : null}
      <h2>Trigger</h2>
      <p>
        {e.trigger.type}
        {e.trigger.event ? `: ${e.trigger.event}` : ''}
      </p>
      <Json value={e.trigger.data} label="Trigger data" />
      <h2>Steps</h2>
      {e.results.length === 0 ? <p className="muted">No step ran.</p> : null}
      <ol className="steps">
        {e.results.map((s, i) => (
          <li key={`${s.stepId}-${s.startedAt}`} className="card">
            <h3>
              {s.name ?? `${s.connector}.${s.action}`} {s.status ? <StatusBadge status={s.status} /> : null}
            </h3>
            <p className="muted">
              {s.connector}.{s.action} · {attempts(s.attempts ?? 1)}
            </p>
            {s.error ? (
              <p className="error">
                {s.error.code ? `${s.error.code}: ` : ''}
                {s.error.message}
              </p>
            ) : null}
            <h4>Input</h4>
            <Json value={e.inputs[i]?.data} label={`Step ${i + 1} input`} />
            <h4>Output</h4>
            <Json value={stepOutput(s.data)} label={`Step ${i + 1} output`} />
          </li>
        ))}
      </ol>
    </>
  );
}

/** A step's output as the widget shows it: the one item's JSON, or the list of items' JSON, without the log's `[[{json}]]` wrapping. */
function stepOutput(data: { json: unknown }[][]) {
  const items = data.flat().map((item) => item.json);
  return items.length === 1 ? items[0] : items;
}
