import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { DefinitionEditor } from '../editor/definition-editor.tsx';
import { NameFields } from '../name-fields.tsx';
import { Link, navigate, usePath } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState } from '../table.tsx';
import { FieldProblems } from '../ui.tsx';

/** A random v4 UUID; `crypto.randomUUID` needs a secure context, and the console may be served over plain http. */
function uuid(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** A definition that runs as it is: a manual trigger and one transform step, to edit from. */
const starter = () =>
  `${JSON.stringify(
    {
      trigger: { type: 'manual' },
      steps: [{ id: uuid(), connector: 'transform', action: 'map', input: { expression: '{"ok": true}' } }],
    },
    null,
    2,
  )}\n`;

/** `POST /workflows`: an integration, a name and the first version's definition, checked as it is typed. */
export function NewWorkflow() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const path = usePath();
  const preset = new URLSearchParams(path.split('?')[1] ?? '').get('integrationId') ?? '';
  const integrations = useQuery({ queryKey: ['integrations'], queryFn: () => client.integrations.list() });
  const initial = useMemo(starter, []);
  const [text, setText] = useState(initial);
  const [errors, setErrors] = useState<string[]>([]);
  const [jsonError, setJsonError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { integrationId: string; name: string; description?: string; definition: unknown }) =>
      client.workflows.create(body as never),
    onSuccess: (r) => {
      void qc.invalidateQueries({ queryKey: ['workflows'] });
      navigate(`/workflows/${r.workflowId}`);
    },
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    let definition: unknown;
    try {
      definition = JSON.parse(text);
    } catch {
      setJsonError('The definition is not valid JSON.');
      return;
    }
    setJsonError(null);
    const description = String(f.get('description') ?? '').trim();
    create.mutate({
      integrationId: String(f.get('integrationId')),
      name: String(f.get('name')).trim(),
      ...(description ? { description } : {}),
      definition,
    });
  };
  return (
    <>
      <p>
        <Link to="/workflows">← All workflows</Link>
      </p>
      <h1>New workflow</h1>
      <QueryState query={integrations} />
      {integrations.data?.length === 0 ? (
        <p role="status">
          A workflow belongs to an integration, and the account has none yet:{' '}
          <Link to="/workflows#integrations-title">create an integration</Link> first.
        </p>
      ) : null}
      {integrations.data?.length ? (
        <form className="stack" onSubmit={onSubmit} aria-label="Create a workflow">
          <div className="card stack">
            <label>
              Integration
              <select name="integrationId" required defaultValue={preset}>
                {integrations.data.map((i) => (
                  <option key={i.integrationId} value={i.integrationId}>
                    {i.name}
                  </option>
                ))}
              </select>
            </label>
            <NameFields />
          </div>
          <h2>Definition</h2>
          <p className="muted">
            Checked as you type against the contract's JSON Schema; the service checks connectors, actions and
            templates when you create it.
          </p>
          <DefinitionEditor
            label="Definition of the new workflow"
            value={initial}
            onChange={(t) => {
              setText(t);
              // What was refused was the text before this edit.
              setJsonError(null);
              if (create.error) create.reset();
            }}
            errors={errors}
            onErrors={setErrors}
          />
          {jsonError ? (
            <p role="alert" className="error">
              {jsonError}
            </p>
          ) : null}
          {create.error ? <FieldProblems error={create.error} under="body.definition." /> : null}
          <div className="actions">
            <button type="submit" disabled={errors.length > 0 || create.isPending}>
              {create.isPending ? 'Creating…' : 'Create workflow'}
            </button>
          </div>
        </form>
      ) : null}
    </>
  );
}
