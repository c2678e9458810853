import type { ProviderCallKind, ProviderCallsQuery } from '@inlay/client';
import { useInfiniteQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, navigate, usePath } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { TimeRangeFields } from '../time-range-fields.tsx';
import { formatMs, formatTime } from '../ui.tsx';

const FILTERS = ['kind', 'connector', 'userId', 'credentialId', 'failed', 'from', 'to'] as const;
type Filters = Partial<Record<(typeof FILTERS)[number], string>>;
const KINDS: Record<ProviderCallKind, string> = {
  step: 'Workflow step',
  proxy: 'Proxy',
  poll: 'Trigger poll',
  options: 'Option list',
  test: 'Connection test',
  oauth: 'OAuth token',
  subscription: 'Trigger subscription',
};

function filtersOf(search: string): Filters {
  const p = new URLSearchParams(search);
  return Object.fromEntries(FILTERS.flatMap((k) => (p.get(k) ? [[k, p.get(k)!]] : [])));
}

/** `datetime-local` values are read as UTC, like every time the console shows. */
const toIso = (local: string | undefined) => (local ? new Date(`${local}:00.000Z`).toISOString() : undefined);

const formatBytes = (n: number) =>
  n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${(n / 1024 / 1024).toFixed(1)} MB`;

/**
 * Calls: every call Inlay made to a provider for the account, newest first, with filters. `?credentialId=` is the
 * view of one connection (the user page links to it).
 */
export function CallsPage() {
  const { client } = useConsole();
  const path = usePath();
  const filters = filtersOf(path.split('?')[1] ?? '');
  const query: ProviderCallsQuery = {
    kind: filters.kind as ProviderCallKind | undefined,
    connector: filters.connector,
    userId: filters.userId,
    credentialId: filters.credentialId,
    failed: filters.failed === 'true' ? 'true' : undefined,
    from: toIso(filters.from),
    to: toIso(filters.to),
    limit: '50',
  };
  const list = useInfiniteQuery({
    queryKey: ['provider-calls', query],
    queryFn: ({ pageParam }) => client.providerCalls.list({ ...query, cursor: pageParam }),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor,
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const p = new URLSearchParams();
    for (const [k, v] of new FormData(e.currentTarget))
      if (typeof v === 'string' && v.trim()) p.set(k, v.trim());
    navigate(`/calls${p.size ? `?${p}` : ''}`);
  };
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  return (
    <>
      <h1>{filters.credentialId ? 'Calls of one connection' : 'Calls'}</h1>
      <p className="muted">
        Every request Inlay sent to a provider: what was called and how it went, never headers or bodies.
      </p>
      <form className="card filters" onSubmit={onSubmit} aria-label="Filter calls" key={path}>
        <label>
          Kind
          <select name="kind" defaultValue={filters.kind ?? ''}>
            <option value="">Any</option>
            {Object.entries(KINDS).map(([k, label]) => (
              <option key={k} value={k}>
                {label}
              </option>
            ))}
          </select>
        </label>
        <label>
          Connector
          <input name="connector" defaultValue={filters.connector ?? ''} />
        </label>
        <label>
          User (id or username)
          <input name="userId" defaultValue={filters.userId ?? ''} />
        </label>
        <label>
          Connection id
          <input name="credentialId" defaultValue={filters.credentialId ?? ''} />
        </label>
        <label>
          Outcome
          <select name="failed" defaultValue={filters.failed ?? ''}>
            <option value="">Any</option>
            <option value="true">Failed (no answer, or 400 and above)</option>
          </select>
        </label>
        <TimeRangeFields from={filters.from} to={filters.to} clearTo="/calls" />
      </form>
      <QueryState
        query={{ error: list.error, isPending: list.isPending, data: list.data && rows }}
        empty="No calls match these filters."
      />
      {rows.length ? (
        <Table
          caption="Provider calls, newest first"
          columns={[
            'Time (UTC)',
            'Kind',
            'Connector',
            'Request',
            'Status',
            'Duration',
            'Size',
            'User',
            'Run',
          ]}
        >
          {rows.map((c) => (
            <tr key={c.providerCallId}>
              <td>{formatTime(c.at)}</td>
              <td>{KINDS[c.kind]}</td>
              <td>
                <Link to={`/calls?connector=${encodeURIComponent(c.connector)}`}>{c.connector}</Link>
              </td>
              <td>
                <code>
                  {c.method} {c.route}
                </code>
              </td>
              <td>
                <span
                  className={`badge badge-${c.status === null || c.status >= 400 ? 'failed' : 'succeeded'}`}
                >
                  {c.status ?? 'no answer'}
                </span>
              </td>
              <td>{formatMs(c.durationMs)}</td>
              <td>{formatBytes(c.bytes)}</td>
              <td>{c.userId ? <Link to={`/users/${c.userId}`}>{c.userId.slice(0, 8)}</Link> : '—'}</td>
              <td>{c.executionId ? <Link to={`/executions/${c.executionId}`}>Run</Link> : '—'}</td>
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
