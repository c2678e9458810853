import { IntegrationsPage, useInstallations, useWorkflows } from '@inlay/react';

export function Integrations() {
  return (
    <div className="stack">
      <h1>Settings → Integrations</h1>
      <p className="muted">Connect Acme CRM to the tools your team uses. Powered by Inlay.</p>
      <IntegrationsPage headingLevel={2} />
      <WebhookUrls />
    </div>
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
