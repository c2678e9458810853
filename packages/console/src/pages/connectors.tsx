import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { DeleteCustomConnector, EditCustomConnector } from '../connectors/custom-connector.tsx';
import { ImportOpenApi } from '../connectors/import-openapi.tsx';
import { NewConnector } from '../connectors/new-connector.tsx';
import { AUTH_TYPE_LABELS, CATEGORY_LABELS } from '../labels.ts';
import { Link } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatTime } from '../ui.tsx';

type Panel = 'new' | 'import' | null;

/** The connector catalog (built-ins and the account's custom connectors), adding one, and the proxy tried live. */
export function ConnectorsPage() {
  const { client } = useConsole();
  const list = useQuery({ queryKey: ['connectors'], queryFn: () => client.connectors.list() });
  const [panel, setPanel] = useState<Panel>(null);
  const toggle = (p: Panel) => setPanel(panel === p ? null : p);
  return (
    <>
      <h1>Connectors</h1>
      <div className="actions">
        <button
          type="button"
          className="secondary"
          aria-expanded={panel === 'new'}
          aria-controls="connector-panel"
          onClick={() => toggle('new')}
        >
          New connector
        </button>
        <button
          type="button"
          className="secondary"
          aria-expanded={panel === 'import'}
          aria-controls="connector-panel"
          onClick={() => toggle('import')}
        >
          Import OpenAPI
        </button>
      </div>
      <div id="connector-panel">
        {panel === 'new' ? (
          <section aria-labelledby="new-connector-title">
            <h2 id="new-connector-title">New connector</h2>
            <p className="muted">
              A declarative definition (the <span className="mono">DeclarativeConnector</span> JSON Schema
              checks it as you type): where the API is, how users sign in, and one entry per action.
            </p>
            <NewConnector />
          </section>
        ) : null}
        {panel === 'import' ? (
          <section aria-labelledby="import-title">
            <h2 id="import-title">Import OpenAPI</h2>
            <ImportOpenApi />
          </section>
        ) : null}
      </div>
      <h2>Catalog</h2>
      <QueryState query={list} />
      {list.data?.length ? (
        <Table
          caption="The connector catalog"
          columns={['Connector', 'Category', 'Sign-in', 'Actions', 'Triggers']}
        >
          {list.data.map((c) => (
            <tr key={c.id}>
              <td>
                <Link to={`/connectors/${encodeURIComponent(c.id)}`}>{c.name}</Link>
                {c.custom ? (
                  <>
                    {' '}
                    <span className="badge badge-custom">Custom</span>
                  </>
                ) : null}
              </td>
              <td>{CATEGORY_LABELS[c.category] ?? c.category}</td>
              <td>{AUTH_TYPE_LABELS[c.authType] ?? c.authType}</td>
              <td>{c.actions.length}</td>
              <td>{c.triggers.length}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}

/** One connector: what it does, and for an OAuth connector the account's OAuth app. */
export function ConnectorDetail({ id }: { id: string }) {
  const { client } = useConsole();
  const list = useQuery({ queryKey: ['connectors'], queryFn: () => client.connectors.list() });
  if (list.error) return <ErrorText error={list.error} />;
  if (!list.data) return <p className="loading">Loading…</p>;
  const c = list.data.find((x) => x.id === id);
  if (!c) return <ErrorText error={new Error('No such connector.')} />;
  return (
    <>
      <p>
        <Link to="/connectors">← All connectors</Link>
      </p>
      <h1>{c.name}</h1>
      {c.custom ? <p className="badge badge-custom">Custom, version {c.version}</p> : null}
      <p>{c.description}</p>
      <dl className="facts card">
        <dt>Id</dt>
        <dd className="mono">{c.id}</dd>
        <dt>Sign-in</dt>
        <dd>{AUTH_TYPE_LABELS[c.authType] ?? c.authType}</dd>
        <dt>Category</dt>
        <dd>{CATEGORY_LABELS[c.category] ?? c.category}</dd>
        <dt>Actions</dt>
        <dd>{c.actions.map((a) => a.name).join(', ') || '—'}</dd>
        <dt>Triggers</dt>
        <dd>{c.triggers.map((t) => t.name).join(', ') || '—'}</dd>
      </dl>
      {c.authType === 'oauth2' ? <OAuthAppForm connector={c.id} defaultScopes={c.scopes ?? []} /> : null}
      {c.custom ? (
        <>
          <EditCustomConnector id={c.id} name={c.name} />
          <DeleteCustomConnector id={c.id} name={c.name} />
        </>
      ) : null}
    </>
  );
}

function OAuthAppForm({ connector, defaultScopes }: { connector: string; defaultScopes: string[] }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const app = useQuery({
    queryKey: ['oauth-app', connector],
    queryFn: () => client.connectors.getOAuthApp(connector),
  });
  const save = useMutation({
    mutationFn: (body: { clientId: string; clientSecret: string; scopes: string[] }) =>
      client.connectors.putOAuthApp(connector, body),
    onSuccess: (a) => qc.setQueryData(['oauth-app', connector], a),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    save.mutate({
      clientId: String(f.get('clientId')).trim(),
      clientSecret: String(f.get('clientSecret')),
      scopes: String(f.get('scopes') ?? '')
        .split(/[\s,]+/)
        .filter(Boolean),
    });
    (form.elements.namedItem('clientSecret') as HTMLInputElement).value = '';
  };
  const a = app.data;
  return (
    <section aria-labelledby="oauth-app-title">
      <h2 id="oauth-app-title">OAuth app</h2>
      {app.error ? <ErrorText error={app.error} /> : null}
      {app.isSuccess ? (
        a ? (
          <p role="status">
            Set up: client <span className="mono">{a.clientId}</span>, updated {formatTime(a.updatedAt)}.
          </p>
        ) : (
          <p role="status">Not set up: users cannot connect {connector} until you register your OAuth app.</p>
        )
      ) : null}
      {a ? (
        <p>
          Redirect URI to register with the provider: <span className="mono">{a.redirectUri}</span>
        </p>
      ) : null}
      {app.isSuccess ? (
        <form className="card stack" onSubmit={onSubmit} key={a?.updatedAt ?? 'new'}>
          <label>
            Client ID
            <input name="clientId" required defaultValue={a?.clientId ?? ''} autoComplete="off" />
          </label>
          <label>
            Client secret
            <input name="clientSecret" type="password" required autoComplete="off" />
          </label>
          <label>
            Scopes (space or comma separated)
            <input name="scopes" defaultValue={(a?.scopes ?? defaultScopes).join(' ')} />
          </label>
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              Save OAuth app
            </button>
          </div>
          {save.error ? <ErrorText error={save.error} /> : null}
        </form>
      ) : null}
    </section>
  );
}
