import type { WebhookEndpoint } from '@inlay/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { SecretOnce } from '../secret-once.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatTime, StatusBadge } from '../ui.tsx';

/** Allowed origins, the retention of runs, and webhook endpoints with their deliveries. */
export function SettingsPage() {
  return (
    <>
      <h1>Settings</h1>
      <AllowedOrigins />
      <Retention />
      <WebhookEndpoints />
    </>
  );
}

function AllowedOrigins() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => client.settings.get() });
  const save = useMutation({
    mutationFn: (allowedOrigins: string[]) => client.settings.put({ allowedOrigins }),
    onSuccess: (s) => qc.setQueryData(['settings'], s),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const text = String(new FormData(e.currentTarget).get('origins') ?? '');
    save.mutate(text.split(/\s+/).filter(Boolean));
  };
  return (
    <section aria-labelledby="origins-title">
      <h2 id="origins-title">Allowed origins</h2>
      <p className="muted">
        The origins your pages live on: OAuth redirect URIs, popup origins and MCP redirect URIs must be on
        one.
      </p>
      {settings.error ? <ErrorText error={settings.error} /> : null}
      {settings.data ? (
        <form className="card stack" onSubmit={onSubmit} key={settings.data.allowedOrigins.join(' ')}>
          <label>
            One origin a line (https://app.example.com)
            <textarea
              name="origins"
              rows={4}
              className="mono"
              defaultValue={settings.data.allowedOrigins.join('\n')}
            />
          </label>
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              Save origins
            </button>
          </div>
          {save.error ? <ErrorText error={save.error} /> : null}
          {save.isSuccess ? <p role="status">Saved.</p> : null}
        </form>
      ) : null}
    </section>
  );
}

/**
 * How long the account's runs are kept: its own number of days, at most the service's
 * (`INLAY_LOG_RETENTION_DAYS`), or the service's.
 */
function Retention() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => client.settings.get() });
  const save = useMutation({
    mutationFn: (logRetentionDays: number | null) => client.settings.put({ logRetentionDays }),
    onSuccess: (s) => qc.setQueryData(['settings'], s),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(Number(new FormData(e.currentTarget).get('days')));
  };
  const s = settings.data;
  return (
    <section aria-labelledby="retention-title">
      <h2 id="retention-title">Retention</h2>
      {s ? (
        <form className="card stack" onSubmit={onSubmit} key={`${s.logRetentionDays}|${s.ownLogRetention}`}>
          <p>
            {`Runs and their logs are kept ${s.logRetentionDays} days, then deleted`}
            {s.ownLogRetention ? ' (this account’s own setting).' : ' (the service’s retention).'}{' '}
            <span className="muted">A user’s runs can be deleted at once from their page.</span>
          </p>
          <label>
            Days to keep runs (at most {s.serviceLogRetentionDays}, the service’s)
            <input
              name="days"
              type="number"
              required
              min={1}
              max={s.serviceLogRetentionDays}
              step={1}
              defaultValue={s.logRetentionDays}
            />
          </label>
          <div className="actions">
            <button type="submit" disabled={save.isPending}>
              Save retention
            </button>
            {s.ownLogRetention ? (
              <button
                type="button"
                className="secondary"
                disabled={save.isPending}
                onClick={() => save.mutate(null)}
              >
                Use the service’s ({s.serviceLogRetentionDays} days)
              </button>
            ) : null}
          </div>
          {save.error ? <ErrorText error={save.error} /> : null}
          {save.isSuccess ? <p role="status">Retention saved.</p> : null}
        </form>
      ) : null}
    </section>
  );
}

/** The events an endpoint can subscribe to, from the service's OpenAPI document (one source of truth). */
function useWebhookEvents() {
  const { client } = useConsole();
  return useQuery({
    queryKey: ['openapi'],
    queryFn: () => client.meta.openapi(),
    staleTime: Number.POSITIVE_INFINITY,
    select: (doc) =>
      ((doc as any).components?.schemas?.CreateWebhookEndpointBody?.properties?.events?.items?.enum ??
        []) as string[],
  });
}

function WebhookEndpoints() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['webhook-endpoints'], queryFn: () => client.webhookEndpoints.list() });
  const events = useWebhookEvents();
  const [secret, setSecret] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { url: string; events: string[] }) => client.webhookEndpoints.create(body as never),
    onSuccess: (r) => {
      setSecret(r.secret);
      void qc.invalidateQueries({ queryKey: ['webhook-endpoints'] });
    },
  });
  const onCreate = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    create.mutate({ url: String(f.get('url')).trim(), events: f.getAll('events').map(String) });
    form.reset();
  };
  return (
    <section aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhook endpoints</h2>
      <form className="card stack" onSubmit={onCreate} aria-label="Add a webhook endpoint">
        <label>
          Endpoint URL
          <input name="url" type="url" required placeholder="https://api.example.com/inlay-events" />
        </label>
        <fieldset>
          <legend>Events</legend>
          <div className="row">
            {events.data?.map((ev) => (
              <label key={ev} className="check">
                <input type="checkbox" name="events" value={ev} defaultChecked /> {ev}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Add endpoint
          </button>
        </div>
      </form>
      {create.error ? <ErrorText error={create.error} /> : null}
      {secret ? (
        <SecretOnce fields={[{ label: 'Signing secret', value: secret }]} onDone={() => setSecret(null)}>
          <strong>Copy the signing secret now:</strong> it is shown only once.
        </SecretOnce>
      ) : null}
      <QueryState query={list} empty="No webhook endpoints." />
      {list.data?.map((ep) => (
        <Endpoint key={ep.webhookEndpointId} ep={ep} />
      ))}
    </section>
  );
}

function Endpoint({ ep }: { ep: WebhookEndpoint }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const [open, setOpen] = useState(false);
  const deliveries = useQuery({
    queryKey: ['webhook-deliveries', ep.webhookEndpointId],
    queryFn: () => client.webhookEndpoints.deliveries(ep.webhookEndpointId),
    enabled: open,
  });
  return (
    <div className="card">
      <h3 className="mono">{ep.url}</h3>
      <p className="muted">
        {ep.events.join(', ')} · added {formatTime(ep.createdAt)}
      </p>
      <div className="actions">
        <button type="button" className="secondary" aria-expanded={open} onClick={() => setOpen(!open)}>
          {open ? 'Hide deliveries' : 'Show deliveries'}
          <span className="sr-only"> of {ep.url}</span>
        </button>
        <ConfirmDelete
          trigger={
            <>
              Delete<span className="sr-only"> {ep.url}</span>
            </>
          }
          title="Delete this endpoint?"
          confirm="Delete endpoint"
          action={() => client.webhookEndpoints.delete(ep.webhookEndpointId)}
          onDone={() => void qc.invalidateQueries({ queryKey: ['webhook-endpoints'] })}
        >
          <p className="mono">{ep.url}</p>
          <p>No more events are sent to it; pending deliveries are dropped.</p>
        </ConfirmDelete>
      </div>
      {open ? <QueryState query={deliveries} empty="No deliveries yet." /> : null}
      {open && deliveries.data?.length ? (
        <Table
          caption={`Latest deliveries to ${ep.url}`}
          columns={['Created (UTC)', 'Event', 'Status', 'Attempts', 'Last answer']}
        >
          {deliveries.data.map((d) => (
            <tr key={d.deliveryId}>
              <td>{formatTime(d.createdAt)}</td>
              <td>{d.event}</td>
              <td>
                <StatusBadge status={d.status} />
              </td>
              <td>{d.attempts}</td>
              <td>{d.lastError ?? d.lastStatusCode ?? '—'}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </div>
  );
}
