// The page the Chromium tests load: one surface of the widget, chosen by the query string, talking to the
// real service with a token from this page's own `/token` endpoint (the `tokenUrl` prop).
import { createRoot } from 'react-dom/client';
import {
  Connections,
  ExecutionLogs,
  type InlayEvent,
  InlayProvider,
  InstallModal,
  IntegrationsPage,
} from '../../src/index.ts';
import '../../src/styles.css';

const q = new URLSearchParams(location.search);
const scheme = (q.get('scheme') ?? 'light') as 'light' | 'dark' | 'system';
const surface = q.get('surface') ?? 'page';
const workflowId = q.get('workflow') ?? '';
const events: InlayEvent[] = [];
Object.assign(window, { inlayEvents: events });
Object.assign(document.documentElement.style, {
  background: scheme === 'dark' ? '#16181d' : '#ffffff',
  color: scheme === 'dark' ? '#e6e8eb' : '#1f2328',
});

createRoot(document.getElementById('root')!).render(
  <InlayProvider
    baseUrl={q.get('api')!}
    tokenUrl={`/token?user=${q.get('user')}`}
    colorScheme={scheme}
    theme={{
      ...(q.get('accent') && { accent: q.get('accent')! }),
      ...(q.get('rootBg') && { 'root-bg': q.get('rootBg')! }),
    }}
    locale={q.get('locale') ?? 'en'}
    onEvent={(e) => events.push(e)}
  >
    <main>
      <h1>Settings</h1>
      {surface === 'page' && <IntegrationsPage />}
      {surface === 'modal' && <InstallModal workflowId={workflowId} defaultOpen />}
      {surface === 'logs' && <ExecutionLogs workflowId={workflowId} />}
      {surface === 'connections' && <Connections />}
    </main>
  </InlayProvider>,
);
