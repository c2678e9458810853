import { isInlayError } from '@inlay/client';
import type { Credential, ProxyMethod } from '@inlay/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useConsole } from '../session.tsx';
import { ErrorText } from '../ui.tsx';

// A type import only: the contract's values would bring zod into the console bundle.
const METHODS: ProxyMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** Characters of a provider's answer shown; the rest is cut (the service caps what it passes on anyway). */
export const SHOWN_CHARS = 20_000;

interface Answer {
  status: number;
  contentType: string;
  body: string;
  truncated: boolean;
}

/** A JSON body pretty-printed, any other text as it is; cut to `SHOWN_CHARS`. */
export function showBody(text: string, contentType: string): Omit<Answer, 'status' | 'contentType'> {
  let body = text;
  if (/json/i.test(contentType))
    try {
      body = JSON.stringify(JSON.parse(text), null, 2);
    } catch {
      // not JSON after all: shown as text
    }
  return { body: body.slice(0, SHOWN_CHARS), truncated: body.length > SHOWN_CHARS };
}

/** `a=1&b=2`, or one `name=value` a line, as the proxy's query parameters. */
const queryOf = (s: string) => {
  const out: Record<string, string[]> = {};
  for (const [k, v] of new URLSearchParams(s.trim().replace(/^\?/, '').replaceAll('\n', '&')))
    if (k) out[k] = [...(out[k] ?? []), v];
  return out;
};

/**
 * `{METHOD} /connectors/{connector}/proxy/{path}?userId=` as the user, from the console session: the provider's
 * status, content type and body, or Inlay's own refusal (no connection, egress, quota) as problem details.
 * Once a user is entered, their credentials for the connector can be picked (`x-inlay-credential-id`), and a
 * connector with named APIs offers them (`?api=`); left at their defaults, the service chooses as it always did.
 */
export function TryProxy() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['connectors'], queryFn: () => client.connectors.list() });
  // The connector picked (the first until one is), and the user as entered when the field is left.
  const [picked, setPicked] = useState<string | null>(null);
  const [user, setUser] = useState('');
  const connector = list.data?.find((c) => c.id === picked) ?? list.data?.[0];
  const credentials = useQuery({
    queryKey: ['proxy-credentials', user, connector?.id],
    enabled: !!user && !!connector,
    // Read again for each user and connector entered: a user may have connected another one meanwhile.
    staleTime: 0,
    queryFn: () => client.credentials.list({ userId: user, connector: connector!.id }),
  });
  const call = useMutation({
    mutationFn: async (f: {
      connector: string;
      userId: string;
      credentialId: string;
      api: string;
      method: ProxyMethod;
      path: string;
      query: string;
      body: string;
    }): Promise<Answer> => {
      const body = f.body.trim();
      let json = false;
      try {
        JSON.parse(body);
        json = body !== '';
      } catch {
        // sent as text
      }
      const res = await client.proxy.request({
        connector: f.connector,
        userId: f.userId,
        ...(f.credentialId ? { credentialId: f.credentialId } : {}),
        ...(f.api ? { api: f.api } : {}),
        method: f.method,
        path: f.path,
        query: queryOf(f.query),
        ...(body && f.method !== 'GET' && f.method !== 'DELETE'
          ? { body, headers: { 'content-type': json ? 'application/json' : 'text/plain' } }
          : {}),
      });
      const contentType = res.headers.get('content-type') ?? '';
      return { status: res.status, contentType, ...showBody(await res.text(), contentType) };
    },
    // A call can change the user's credentials (a refused refresh asks to reconnect), and a 409 says they have
    // more than the picker knew of: it is read again after each.
    onSettled: () => qc.invalidateQueries({ queryKey: ['proxy-credentials'] }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const s = (k: string) => String(f.get(k) ?? '');
    setUser(s('userId').trim());
    call.mutate({
      connector: s('connector'),
      userId: s('userId').trim(),
      credentialId: s('credentialId'),
      api: s('api'),
      method: s('method') as ProxyMethod,
      path: s('path').trim(),
      query: s('query'),
      body: s('body'),
    });
  };
  const a = call.data;
  return (
    <section aria-labelledby="proxy-title">
      <h1 id="proxy-title">Try the proxy</h1>
      <p className="muted">
        Calls the provider's API as one of your users, with their connection's credential inserted by Inlay
        (the same request your backend makes with the API key).
      </p>
      {list.error ? <ErrorText error={list.error} /> : null}
      <form className="card stack" onSubmit={onSubmit}>
        <div className="filters">
          {/* Not wrapped: a wrapping label would add the chosen option to the select's name. */}
          <div className="field">
            <label htmlFor="proxy-connector">Connector</label>
            <select
              id="proxy-connector"
              name="connector"
              required
              onChange={(e) => setPicked(e.currentTarget.value)}
            >
              {list.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
          <label>
            User (id or username)
            <input
              name="userId"
              required
              autoComplete="off"
              onBlur={(e) => setUser(e.currentTarget.value.trim())}
            />
          </label>
          {credentials.data?.length ? (
            <div className="field">
              <label htmlFor="proxy-credential">Credential</label>
              <select id="proxy-credential" name="credentialId" key={`${user} ${connector?.id}`}>
                <option value="">The only connected one</option>
                {credentials.data.map((c) => (
                  <option key={c.credentialId} value={c.credentialId}>
                    {credentialLabel(c)}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          {connector?.apis?.length ? (
            <div className="field">
              <label htmlFor="proxy-api">API</label>
              <select id="proxy-api" name="api" key={connector.id}>
                <option value="">Base URL</option>
                {connector.apis.map((a) => (
                  <option key={a}>{a}</option>
                ))}
              </select>
            </div>
          ) : null}
          <div className="field">
            <label htmlFor="proxy-method">Method</label>
            <select id="proxy-method" name="method" defaultValue="GET">
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </div>
        </div>
        {credentials.error ? <ErrorText error={credentials.error} /> : null}
        {credentials.data?.length === 0 ? (
          <p className="muted">
            {user} has no {connector?.name} credential yet: the request will be refused.
          </p>
        ) : null}
        <label>
          Path (below the connector's base URL or the API chosen)
          <input name="path" required placeholder="/user" autoComplete="off" className="mono" />
        </label>
        <label>
          Query (optional: a=1&amp;b=2, or one name=value a line)
          <textarea name="query" rows={2} spellCheck={false} className="mono" />
        </label>
        <label>
          Body (optional: JSON is sent as JSON, anything else as text)
          <textarea name="body" rows={4} spellCheck={false} className="mono" />
        </label>
        <div className="actions">
          <button type="submit" disabled={call.isPending || !list.data}>
            {call.isPending ? 'Sending…' : 'Send request'}
          </button>
        </div>
      </form>
      {call.error ? <ProblemDetails error={call.error} /> : null}
      {a && !call.isPending && !call.error ? (
        <section aria-label="Provider answer" className="card">
          <dl className="facts">
            <dt>Status</dt>
            <dd>{a.status}</dd>
            <dt>Content type</dt>
            <dd className="mono">{a.contentType || '—'}</dd>
          </dl>
          <section aria-label="Response body">
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus (axe scrollable-region-focusable) */}
            <pre className="json" tabIndex={0}>
              {a.body || '(empty)'}
            </pre>
          </section>
          {a.truncated ? (
            <p className="muted">Cut to the first {SHOWN_CHARS.toLocaleString('en')} characters.</p>
          ) : null}
        </section>
      ) : null}
    </section>
  );
}

/** A credential as the picker lists it: its name, the provider account, its status and the start of its id. */
const credentialLabel = (c: Credential) =>
  [c.name, c.accountLabel, c.status, c.credentialId.slice(0, 8)].filter(Boolean).join(' · ');

/** Inlay's refusal as RFC 9457 problem details: status, code, title, detail and the fields it names. */
function ProblemDetails({ error }: { error: unknown }) {
  if (!isInlayError(error)) return <ErrorText error={error} />;
  return (
    <div className="card" role="alert" aria-label="Problem details">
      <dl className="facts">
        <dt>Status</dt>
        <dd>{error.status}</dd>
        <dt>Code</dt>
        <dd className="mono">{error.code}</dd>
        <dt>Title</dt>
        <dd>{error.title}</dd>
        <dt>Detail</dt>
        <dd className="error">{error.detail}</dd>
        {error.errors.map((e) => (
          <FieldError key={`${e.field} ${e.rule}`} field={e.field} message={e.message} />
        ))}
      </dl>
    </div>
  );
}

const FieldError = ({ field, message }: { field: string; message: string }) => (
  <>
    <dt className="mono">{field}</dt>
    <dd>{message}</dd>
  </>
);
