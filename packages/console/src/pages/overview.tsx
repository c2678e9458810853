import type { ExecutionStats } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { RunsChart } from '../chart.tsx';
import { Link } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatMs, formatTime, StatusBadge } from '../ui.tsx';

export function OverviewPage() {
  const { client } = useConsole();
  const [bucket, setBucket] = useState<'hour' | 'day'>('hour');
  const stats = useQuery({
    queryKey: ['stats', bucket],
    queryFn: () =>
      client.executions.stats(
        bucket === 'hour'
          ? { bucket }
          : { bucket, from: new Date(Date.now() - 30 * 86_400_000).toISOString() },
      ),
  });
  return (
    <>
      <h1>Overview</h1>
      <section aria-labelledby="runs-h" className="card">
        <div className="row">
          <h2 id="runs-h">Runs by status</h2>
          <fieldset className="segmented">
            <legend className="sr-only">Period</legend>
            {(['hour', 'day'] as const).map((b) => (
              <label key={b}>
                <input
                  type="radio"
                  name="bucket"
                  value={b}
                  checked={bucket === b}
                  onChange={() => setBucket(b)}
                />
                {b === 'hour' ? 'Last 24 hours, per hour' : 'Last 30 days, per day'}
              </label>
            ))}
          </fieldset>
        </div>
        {stats.error ? <ErrorText error={stats.error} /> : null}
        {stats.data ? <StatsView stats={stats.data} /> : <p className="loading">Loading…</p>}
      </section>
      <NeedsAccount />
      <NeedsReconnect />
      <FailingDeliveries />
    </>
  );
}

function StatsView({ stats }: { stats: ExecutionStats }) {
  const t = stats.totals;
  const rate = stats.errorRate === null ? '—' : `${(stats.errorRate * 100).toFixed(1)} %`;
  return (
    <>
      <dl className="figures">
        <div>
          <dt>Runs</dt>
          <dd>{t.succeeded + t.failed + t.running + t.queued}</dd>
        </div>
        <div>
          <dt>Failed</dt>
          <dd>{t.failed}</dd>
        </div>
        <div>
          <dt>Error rate</dt>
          <dd>{rate}</dd>
        </div>
        <div>
          <dt>In progress</dt>
          <dd>{t.running + t.queued}</dd>
        </div>
      </dl>
      <RunsChart stats={stats} />
      <h3 id="slowest-h">Slowest workflows (p95)</h3>
      {stats.slowestWorkflows.length === 0 ? (
        <p className="muted">No finished runs in this period.</p>
      ) : (
        <Table labelledBy="slowest-h" columns={['Workflow', 'Runs', 'p95']}>
          {stats.slowestWorkflows.map((w) => (
            <tr key={w.workflowId}>
              <td>
                <Link to={`/executions?workflowId=${w.workflowId}`}>{w.workflowName ?? w.workflowId}</Link>
              </td>
              <td>{w.runs}</td>
              <td>{formatMs(w.p95Ms)}</td>
            </tr>
          ))}
        </Table>
      )}
    </>
  );
}

/**
 * Installations that cannot run for want of an account (`GET /installations?attention=true`): no account chosen
 * for an app, or a chosen one the provider refuses. The same `attention` the widget's cards show.
 */
function NeedsAccount() {
  const { client } = useConsole();
  const q = useQuery({
    queryKey: ['needs-account'],
    queryFn: () => client.installations.list({ attention: 'true' }),
  });
  const workflows = useQuery({ queryKey: ['workflows'], queryFn: () => client.workflows.listAll() });
  const names = new Map(workflows.data?.map((w) => [w.workflowId, w.name]));
  return (
    <section aria-labelledby="needs-account-h" className="card">
      <h2 id="needs-account-h">Installations that cannot run</h2>
      <QueryState query={q} empty="None: every installation has a working account for each app." />
      {q.data?.length ? (
        <Table labelledBy="needs-account-h" columns={['User', 'Workflows', 'What it needs', 'Since (UTC)']}>
          {q.data.map((i) => (
            <tr key={i.installationId}>
              <td>
                <Link to={`/users/${i.userId}`}>{i.userId}</Link>
              </td>
              <td>{i.workflowIds.map((id) => names.get(id) ?? id).join(', ')}</td>
              <td>{i.attention?.message}</td>
              <td>{i.attention ? formatTime(i.attention.since) : '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}

/** Connections a user must sign in to again (`GET /account/credentials?status=needs_reconnect`). */
function NeedsReconnect() {
  const { client } = useConsole();
  const q = useQuery({
    queryKey: ['needs-reconnect'],
    queryFn: () => client.credentials.listAll({ status: 'needs_reconnect', limit: '50' }),
  });
  return (
    <section aria-labelledby="reconnect-h" className="card">
      <h2 id="reconnect-h">Connections that need a reconnect</h2>
      <QueryState query={q} empty="None: every connection works." />
      {q.data?.length ? (
        <Table labelledBy="reconnect-h" columns={['User', 'Connector', 'Account', 'Why', 'Since (UTC)']}>
          {q.data.map((c) => (
            <tr key={c.credentialId}>
              <td>
                <Link to={`/users/${c.userId}`}>{c.username}</Link>
              </td>
              <td>{c.name}</td>
              <td>{c.accountLabel ?? '—'}</td>
              <td>{c.statusReason ?? '—'}</td>
              <td>{formatTime(c.statusChangedAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}

/** Deliveries that failed for good, or are being retried after a failed attempt: one request for all endpoints. */
function FailingDeliveries() {
  const { client } = useConsole();
  const q = useQuery({
    queryKey: ['failing-deliveries'],
    queryFn: () => client.webhookDeliveries.list({ status: 'failing', limit: '50' }),
  });
  return (
    <section aria-labelledby="deliveries-h" className="card">
      <h2 id="deliveries-h">Failing webhook deliveries</h2>
      <QueryState query={q} empty="None: every delivery went through." />
      {q.data?.length ? (
        <Table
          labelledBy="deliveries-h"
          columns={['Endpoint', 'Event', 'Status', 'Attempts', 'Last error', 'Created (UTC)']}
        >
          {q.data.map((d) => (
            <tr key={d.deliveryId}>
              <td className="mono">{d.url}</td>
              <td>{d.event}</td>
              <td>
                <StatusBadge status={d.status} />
              </td>
              <td>{d.attempts}</td>
              <td>{d.lastError ?? (d.lastStatusCode ? `HTTP ${d.lastStatusCode}` : '—')}</td>
              <td>{formatTime(d.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </section>
  );
}
