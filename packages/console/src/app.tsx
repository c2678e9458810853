import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { TryProxy } from './connectors/try-proxy.tsx';
import { ApiKeysPage } from './pages/api-keys.tsx';
import { CallsPage } from './pages/calls.tsx';
import { ConnectorDetail, ConnectorsPage } from './pages/connectors.tsx';
import { ExecutionDetail, ExecutionsPage } from './pages/executions.tsx';
import { McpServersPage } from './pages/mcp-servers.tsx';
import { NewWorkflow } from './pages/new-workflow.tsx';
import { OverviewPage } from './pages/overview.tsx';
import { SettingsPage } from './pages/settings.tsx';
import { UserDetail } from './pages/user-detail.tsx';
import { UsersPage } from './pages/users.tsx';
import { WorkflowDetail } from './pages/workflow-detail.tsx';
import { WorkflowsPage } from './pages/workflows.tsx';
import { Link, usePath } from './router.tsx';
import { SessionProvider, sessions, useConsole, useSessionQuery } from './session.tsx';
import { ErrorText } from './ui.tsx';

/** The console's pages, in the order of the navigation (each is described in docs/console.md). */
const NAV = [
  { to: '/', label: 'Overview' },
  { to: '/users', label: 'Users' },
  { to: '/workflows', label: 'Workflows' },
  { to: '/executions', label: 'Executions' },
  { to: '/calls', label: 'Calls' },
  { to: '/connectors', label: 'Connectors' },
  { to: '/proxy', label: 'Try the proxy' },
  { to: '/mcp-servers', label: 'MCP servers' },
  { to: '/api-keys', label: 'API keys' },
  { to: '/settings', label: 'Settings' },
] as const;

export function App() {
  const session = useSessionQuery();
  if (session.isPending) return <p className="loading">Loading…</p>;
  if (session.error) return <ErrorText error={session.error} />;
  if (!session.data) return <SignIn />;
  return (
    <SessionProvider session={session.data}>
      <Shell />
    </SessionProvider>
  );
}

function SignIn() {
  const qc = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const input = form.elements.namedItem('apiKey') as HTMLInputElement;
    setBusy(true);
    setError(null);
    try {
      const s = await sessions.signIn(input.value.trim());
      // The key goes no further than this request: the session is the httpOnly cookie.
      input.value = '';
      qc.setQueryData(['console-session'], s);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main className="signin">
      <h1>Inlay console</h1>
      <form onSubmit={onSubmit} className="card">
        <label htmlFor="api-key">API key</label>
        <input
          id="api-key"
          name="apiKey"
          type="password"
          autoComplete="off"
          required
          placeholder="inlay_live_…"
          aria-describedby="api-key-help"
        />
        <p id="api-key-help" className="muted">
          Exchanged for a 12-hour session; the key is not kept in this browser.
        </p>
        {error ? <ErrorText error={error} /> : null}
        <button type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}

function Shell() {
  const path = usePath();
  const { session, signOut } = useConsole();
  const route = path.split('?')[0]!;
  const mainRef = useRef<HTMLElement>(null);
  // After a navigation, focus moves to the new page so a keyboard or screen-reader user starts there.
  const shown = useRef(route);
  useEffect(() => {
    if (shown.current === route) return;
    shown.current = route;
    mainRef.current?.focus();
  }, [route]);
  const section = `/${route.split('/')[1] ?? ''}`;
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Inlay console</span>
        <span className="account">{session.accountName}</span>
        <button type="button" className="secondary" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Console">
        <ul>
          {NAV.map((n) => (
            <li key={n.to}>
              <Link to={n.to} aria-current={section === n.to ? 'page' : undefined}>
                {n.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <main id="main" ref={mainRef} tabIndex={-1}>
        <Page route={route} />
      </main>
    </div>
  );
}

function Page({ route }: { route: string }) {
  const m = /^\/executions\/([0-9a-f-]{36})$/.exec(route);
  if (m) return <ExecutionDetail executionId={m[1]!} />;
  const user = /^\/users\/([0-9a-f-]{36})$/.exec(route);
  if (user) return <UserDetail userId={user[1]!} />;
  const connector = /^\/connectors\/([^/]+)$/.exec(route);
  if (connector) return <ConnectorDetail id={decodeURIComponent(connector[1]!)} />;
  const workflow = /^\/workflows\/([0-9a-f-]{36})$/.exec(route);
  if (workflow) return <WorkflowDetail workflowId={workflow[1]!} />;
  switch (route) {
    case '/':
      return <OverviewPage />;
    case '/users':
      return <UsersPage />;
    case '/workflows':
      return <WorkflowsPage />;
    case '/workflows/new':
      return <NewWorkflow />;
    case '/executions':
      return <ExecutionsPage />;
    case '/calls':
      return <CallsPage />;
    case '/connectors':
      return <ConnectorsPage />;
    case '/proxy':
      return <TryProxy />;
    case '/mcp-servers':
      return <McpServersPage />;
    case '/api-keys':
      return <ApiKeysPage />;
    case '/settings':
      return <SettingsPage />;
    default:
      return (
        <>
          <h1>Not found</h1>
          <p>
            No such page. <Link to="/">Back to the overview</Link>
          </p>
        </>
      );
  }
}
