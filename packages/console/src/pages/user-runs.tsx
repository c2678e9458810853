import { ExecutionLogs, InlayProvider } from '@inlay/react';
import '@inlay/react/styles.css';
import { useState } from 'react';
import { useConsole } from '../session.tsx';
import { CONSOLE_LOCALE, CONSOLE_TIME_ZONE } from '../ui.tsx';

/**
 * A user's runs as the widget shows them: `<ExecutionLogs>` under an `InlayProvider` whose token the console
 * mints for that user (`GET /users/{userId}/token`, allowed to the console session as to its API key).
 */
export default function UserRuns({
  userId,
  workflows,
}: {
  userId: string;
  workflows: { workflowId: string; name: string }[];
}) {
  const { client } = useConsole();
  const [workflowId, setWorkflowId] = useState(workflows[0]!.workflowId);
  return (
    <div className="card">
      <label>
        Workflow
        <select value={workflowId} onChange={(e) => setWorkflowId(e.target.value)}>
          {workflows.map((w) => (
            <option key={w.workflowId} value={w.workflowId}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      <InlayProvider
        baseUrl={window.location.origin}
        getToken={() => client.users.token(userId)}
        locale={CONSOLE_LOCALE}
        timeZone={CONSOLE_TIME_ZONE}
        key={userId}
      >
        <ExecutionLogs workflowId={workflowId} live={false} />
      </InlayProvider>
    </div>
  );
}
