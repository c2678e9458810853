import { Connections, IntegrationsPage, useInstallations, useWorkflows } from '@inlay/react';
import { useEffect, useState } from 'react';
import { api } from '../api.ts';

export function Integrations() {
  return (
    <div className="stack">
      <h1>Settings → Integrations</h1>
      <p className="muted">Connect Acme CRM to the tools your team uses. Powered by Inlay.</p>
      <Notices />
      <IntegrationsPage headingLevel={2} />
      <Connections />
      <WebhookUrls />
    </div>
  );
}

interface Notice {
  webhookId: string;
  type: string;
  message: string;
  receivedAt: string;
}

/**
 * What Acme CRM's backend did with Inlay's account webhooks for this user (it would email them): shown here
 * so the demo makes the host's side visible. Polled, as a real inbox would be.
 */
function Notices() {
  const [notices, setNotices] = useState<Notice[]>([]);
  useEffect(() => {
    const load = () =>
      api<{ data: Notice[] }>('GET', '/notices').then(
        (r) => setNotices(r.data),
        () => {},
      );
    load();
    const timer = setInterval(load, 2000);
    return () => clearInterval(timer);
  }, []);
  const reconnect = notices.filter((n) => n.type === 'credential.needs_reconnect').slice(0, 3);
  if (!reconnect.length) return null;
  return (
    <section className="card stack" aria-label="Notifications from Acme CRM">
      {reconnect.map((n) => (
        <p key={n.webhookId} data-testid="host-notice">
          {n.message} <span className="muted">({new Date(n.receivedAt).toLocaleTimeString()})</span>
        </p>
      ))}
    </section>
  );
}

/** The host's own panel: where to send events for installed webhook-triggered workflows. */
function WebhookUrls() {
  const workflows = useWorkflows();
  const installations = useInstallations();
  const hooks = (workflows.data ?? [])
    .filter((w) => w.installed && w.trigger.type === 'webhook')
    .map((w) => ({
      workflow: w,
      url: installations.data?.find((i) => i.installationId === w.installationId)?.webhookUrl,
    }))
    .filter((h): h is { workflow: typeof h.workflow; url: string } => Boolean(h.url));
  if (!hooks.length) return null;
  return (
    <section className="card stack" aria-labelledby="webhooks-title">
      <h2 id="webhooks-title">Webhook URLs</h2>
      <p className="muted">
        Anything that can send an HTTP POST with a JSON body (your website's form, a script) starts these
        workflows. Keep the URLs secret.
      </p>
      {hooks.map(({ workflow, url }) => (
        <div key={workflow.workflowId}>
          <strong>{workflow.name}</strong>
          <pre className="code">
            {`curl -X POST '${url}' \\\n  -H 'content-type: application/json' \\\n  -d '{"name":"Ada Lovelace","email":"ada@example.test"}'`}
          </pre>
        </div>
      ))}
    </section>
  );
}
