import { ExecutionLogs, useWorkflows } from '@inlay/react';

/** Run history: Inlay's `<ExecutionLogs>` for each workflow the user installed. */
export function RunHistory() {
  const workflows = useWorkflows();
  const installed = workflows.data?.filter((w) => w.installed) ?? [];
  return (
    <div className="stack">
      <h1>Run history</h1>
      {workflows.isPending && <p className="muted">Loading…</p>}
      {workflows.isError && (
        <p role="alert" className="error">
          {workflows.error.message}
        </p>
      )}
      {workflows.isSuccess && installed.length === 0 && (
        <p className="muted">No installed workflows yet: install one under Settings → Integrations.</p>
      )}
      {installed.map((w) => (
        <section key={w.workflowId} className="card" aria-labelledby={`runs-${w.workflowId}`}>
          <h2 id={`runs-${w.workflowId}`}>
            {w.name} {!w.active && <span className="stage">disabled</span>}
          </h2>
          <ExecutionLogs workflowId={w.workflowId} title={null} />
        </section>
      ))}
    </div>
  );
}
