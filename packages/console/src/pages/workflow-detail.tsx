import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useMemo, useState } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { DefinitionEditor } from '../editor/definition-editor.tsx';
import { forgetQueries } from '../forget-queries.ts';
import { Link, navigate } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { ErrorText, FieldProblems } from '../ui.tsx';

// The diff view loads with CodeMirror only when a workflow is opened (its own chunk).
const JsonDiff = lazy(() => import('../editor/json-editor.tsx').then((m) => ({ default: m.JsonDiff })));

const pretty = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** A workflow: its versions, the definition in an editor checked against the contract, publish, diff, test run. */
export function WorkflowDetail({ workflowId }: { workflowId: string }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const wf = useQuery({
    queryKey: ['workflows'],
    queryFn: () => client.workflows.listAll(),
    select: (all) => {
      const w = all.find((x) => x.workflowId === workflowId);
      if (!w) throw new Error('No such workflow.');
      return w;
    },
  });
  const current = useQuery({
    queryKey: ['definition', workflowId, 'current'],
    queryFn: () => client.workflows.definition(workflowId),
  });
  const [text, setText] = useState<string | null>(null);
  const [errors, setErrors] = useState<string[]>([]);
  const publish = useMutation({
    mutationFn: (definition: unknown) => client.workflows.update(workflowId, { definition } as never),
    onSuccess: () => {
      setText(null);
      void qc.invalidateQueries({ queryKey: ['definition', workflowId] });
      void qc.invalidateQueries({ queryKey: ['workflows'] });
    },
  });
  if (wf.error) return <ErrorText error={wf.error} />;
  if (!wf.data || !current.data) return <p className="loading">Loading…</p>;
  const w = wf.data;
  const version = current.data.version;
  const onPublish = () => {
    let definition: unknown;
    try {
      definition = JSON.parse(text ?? '');
    } catch {
      return;
    }
    publish.mutate(definition);
  };
  return (
    <>
      <p>
        <Link to="/workflows">← All workflows</Link>
      </p>
      <h1>{w.name}</h1>
      <dl className="facts card">
        <dt>Workflow</dt>
        <dd className="mono">{w.workflowId}</dd>
        <dt>Integration</dt>
        <dd>{w.integrationName}</dd>
        <dt>Current version</dt>
        <dd>{version}</dd>
        <dt>Runs</dt>
        <dd>
          <Link to={`/executions?workflowId=${w.workflowId}`}>This workflow's runs in Executions</Link>
        </dd>
      </dl>
      <div className="actions">
        <ConfirmDelete
          trigger="Delete workflow"
          title={`Delete ${w.name}?`}
          confirm="Delete workflow"
          action={() => client.workflows.delete(workflowId)}
          onDone={() => {
            // Off this page first: refetched here, the list would no longer hold the workflow.
            navigate('/workflows');
            forgetQueries(qc, ['definition', workflowId]);
            void qc.invalidateQueries({ queryKey: ['workflows'] });
          }}
        >
          <p>
            Its versions go with it; its past runs stay in Executions. The service refuses while users have it
            installed: uninstall it from their pages first. This cannot be undone.
          </p>
        </ConfirmDelete>
      </div>

      <h2 id="definition-title">Definition (version {version})</h2>
      <p className="muted" id="definition-help">
        Checked as you type against the contract's JSON Schema; publishing makes a new version that new runs
        use.
      </p>
      <DefinitionEditor
        // Keys of their own: the editor and the versions are siblings, and each starts again on a new version.
        key={`editor-${version}`}
        label={`Definition of ${w.name}`}
        value={pretty(current.data.definition)}
        onChange={(t) => {
          setText(t);
          // The service's refusal was of the text before this edit.
          if (publish.error) publish.reset();
        }}
        errors={errors}
        onErrors={setErrors}
      />
      <div className="actions">
        <button
          type="button"
          onClick={onPublish}
          disabled={text === null || errors.length > 0 || publish.isPending}
        >
          {publish.isPending ? 'Publishing…' : 'Publish new version'}
        </button>
      </div>
      {publish.error ? <FieldProblems error={publish.error} under="body.definition." /> : null}
      {publish.data ? (
        <p role="status" className="notice card">
          Published version {publish.data.version}.
        </p>
      ) : null}

      <Versions key={`versions-${version}`} workflowId={workflowId} current={version} />
      <TestRun workflowId={workflowId} />
    </>
  );
}

/** Two versions side by side as one diff (`GET /workflows/{id}/definition?version=`). */
function Versions({ workflowId, current }: { workflowId: string; current: number }) {
  const { client } = useConsole();
  const [pair, setPair] = useState({ a: Math.max(1, current - 1), b: current });
  const numbers = useMemo(() => Array.from({ length: current }, (_, i) => current - i), [current]);
  const def = (v: number) => ({
    queryKey: ['definition', workflowId, v],
    queryFn: () => client.workflows.definition(workflowId, { version: v }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const a = useQuery(def(pair.a));
  const b = useQuery(def(pair.b));
  const options = numbers.map((n) => (
    <option key={n} value={n}>
      Version {n}
      {n === current ? ' (current)' : ''}
    </option>
  ));
  return (
    <section aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      <div className="card row">
        <label>
          From
          <select value={pair.a} onChange={(e) => setPair({ ...pair, a: Number(e.target.value) })}>
            {options}
          </select>
        </label>
        <label>
          To
          <select value={pair.b} onChange={(e) => setPair({ ...pair, b: Number(e.target.value) })}>
            {options}
          </select>
        </label>
      </div>
      {a.error || b.error ? <ErrorText error={a.error ?? b.error} /> : null}
      {a.data && b.data ? (
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <JsonDiff
            label={`Changes from version ${pair.a} to version ${pair.b}`}
            before={pretty(a.data.definition)}
            after={pretty(b.data.definition)}
          />
        </Suspense>
      ) : null}
    </section>
  );
}

/** "Test run as user": `POST /run/workflow` for one user with trigger data, then the run's page. */
function TestRun({ workflowId }: { workflowId: string }) {
  const { client } = useConsole();
  const [dataError, setDataError] = useState<string | null>(null);
  const run = useMutation({
    mutationFn: (v: { userId: string; data: Record<string, unknown> }) =>
      client.runs.workflow({ workflowId, userId: v.userId, data: v.data }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(String(f.get('data') || '{}'));
      if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new Error();
    } catch {
      setDataError('Trigger data must be a JSON object.');
      return;
    }
    setDataError(null);
    run.mutate({ userId: String(f.get('userId')).trim(), data });
  };
  return (
    <section aria-labelledby="test-run-title">
      <h2 id="test-run-title">Test run as user</h2>
      <form className="card stack" onSubmit={onSubmit}>
        <label>
          User (id or username)
          <input name="userId" required maxLength={255} />
        </label>
        <label>
          Trigger data (JSON object)
          <textarea name="data" rows={4} className="mono" defaultValue="{}" />
        </label>
        {dataError ? (
          <p role="alert" className="error">
            {dataError}
          </p>
        ) : null}
        <div className="actions">
          <button type="submit" disabled={run.isPending}>
            Run now
          </button>
        </div>
      </form>
      {run.error ? <ErrorText error={run.error} /> : null}
      {run.data ? (
        <div role="status" className="notice card">
          {run.data.executionIds.length === 0 ? (
            <p>No run started: the user has not installed this workflow, or it is not active.</p>
          ) : (
            <p>
              Started:{' '}
              {run.data.executionIds.map((id) => (
                <Link key={id} to={`/executions/${id}`}>
                  open the run
                </Link>
              ))}
            </p>
          )}
        </div>
      ) : null}
    </section>
  );
}
