import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { Link, navigate } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatTime, StatusBadge } from '../ui.tsx';

// The widget's run log (`<ExecutionLogs>` from @inlay/react) loads only when a user's page is opened.
const UserRuns = lazy(() => import('./user-runs.tsx'));

/** One user: installations, credentials (status and label), run history, and the compliance delete. */
export function UserDetail({ userId }: { userId: string }) {
  const { client } = useConsole();
  const user = useQuery({ queryKey: ['user', userId], queryFn: () => client.users.get(userId) });
  const installs = useQuery({
    queryKey: ['installations', userId],
    queryFn: () => client.installations.list({ userId }),
  });
  const creds = useQuery({
    queryKey: ['credentials', userId],
    queryFn: () => client.credentials.list({ userId }),
  });
  const workflows = useQuery({
    queryKey: ['user-workflows', userId],
    queryFn: () => client.workflows.list({ userId }),
  });
  if (user.error) return <ErrorText error={user.error} />;
  if (!user.data) return <p className="loading">Loading…</p>;
  const u = user.data;
  const names = new Map(workflows.data?.map((w) => [w.workflowId, w.name]));
  const installed = workflows.data?.filter((w) => w.installed) ?? [];
  return (
    <>
      <p>
        <Link to="/users">← All users</Link>
      </p>
      <h1>{u.fullName ? `${u.fullName} (${u.username})` : u.username}</h1>
      <dl className="facts card">
        <dt>User id</dt>
        <dd className="mono">{u.userId}</dd>
        <dt>Username</dt>
        <dd>{u.username}</dd>
        <dt>Created</dt>
        <dd>{formatTime(u.createdAt)}</dd>
      </dl>

      <h2>Installations</h2>
      {/* Shown once the workflows' names are there too: never a row of raw ids that turns into names. */}
      <QueryState
        query={{
          error: installs.error ?? workflows.error,
          isPending: installs.isPending || workflows.isPending,
          data: installs.data,
        }}
        empty="Nothing installed."
      />
      {installs.data?.length && workflows.data ? (
        <Table caption={`Installations of ${u.username}`} columns={['Installed (UTC)', 'Workflows', 'State']}>
          {installs.data.map((i) => (
            <tr key={i.installationId}>
              <td>{formatTime(i.installedAt)}</td>
              <td>{i.workflowIds.map((id) => names.get(id) ?? id).join(', ')}</td>
              <td>
                {i.attention ? <strong>{i.attention.message}</strong> : i.enabled ? 'enabled' : 'disabled'}
              </td>
            </tr>
          ))}
        </Table>
      ) : null}

      <h2>Credentials</h2>
      <QueryState query={creds} empty="No connected accounts." />
      {creds.data?.length ? (
        <Table
          caption={`Credentials of ${u.username}`}
          columns={['Connector', 'Label', 'Account', 'Status', 'Since (UTC)', 'Calls']}
        >
          {creds.data.map((c) => (
            <tr key={c.credentialId}>
              <td>{c.connector}</td>
              <td>{c.name}</td>
              <td>{c.accountLabel ?? <span className="muted">—</span>}</td>
              <td>
                <StatusBadge status={c.status} />
                {c.statusReason ? <span className="muted"> {c.statusReason}</span> : null}
              </td>
              <td>{formatTime(c.statusChangedAt)}</td>
              <td>
                <Link to={`/calls?credentialId=${c.credentialId}`}>Calls of {c.name}</Link>
              </td>
            </tr>
          ))}
        </Table>
      ) : null}

      <h2>Run history</h2>
      <p>
        <Link to={`/executions?userId=${u.userId}`}>Every run of {u.username} in Executions</Link>
      </p>
      {installed.length ? (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <UserRuns userId={u.userId} workflows={installed} />
        </Suspense>
      ) : workflows.data ? (
        <p className="muted">No installed workflow.</p>
      ) : null}

      <h2>Delete</h2>
      <DeleteUser userId={u.userId} username={u.username} />
    </>
  );
}

/** The compliance delete: the user, their installations, credentials and runs, after typing the username. */
function DeleteUser({ userId, username }: { userId: string; username: string }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const [typed, setTyped] = useState('');
  return (
    <div className="card">
      <p>Deletes the user with their installations, credentials and run history. This cannot be undone.</p>
      <ConfirmDelete
        trigger="Delete user…"
        title={`Delete ${username} and all their data?`}
        confirm="Delete permanently"
        ready={typed === username}
        action={() => client.users.delete(userId)}
        onDone={() => {
          void qc.invalidateQueries({ queryKey: ['users'] });
          void qc.invalidateQueries({ queryKey: ['executions'] });
          navigate('/users');
        }}
      >
        <label>
          Type the username to confirm
          <input value={typed} onChange={(e) => setTyped(e.target.value)} autoComplete="off" />
        </label>
      </ConfirmDelete>
    </div>
  );
}
