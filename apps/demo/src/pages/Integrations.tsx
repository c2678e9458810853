import { IntegrationsPage } from '@inlay/react';

export function Integrations() {
  return (
    <div className="stack">
      <h1>Settings → Integrations</h1>
      <p className="muted">Connect Acme CRM to the tools your team uses. Powered by Inlay.</p>
      <IntegrationsPage headingLevel={2} />
    </div>
  );
}
