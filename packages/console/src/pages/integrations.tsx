import type { Integration, UpdateIntegrationBody } from '@inlay/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { NameFields } from '../name-fields.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatTime } from '../ui.tsx';

/** The fields of an integration's form, as the service takes them (`null` clears description and connector). */
function fieldsOf(form: HTMLFormElement) {
  const f = new FormData(form);
  const text = (k: string) => String(f.get(k) ?? '').trim();
  return {
    name: text('name'),
    description: text('description') || null,
    connector: text('connector') || null,
  };
}

/** Name, description and connector: the create form and the edit dialog share them. */
function IntegrationFields({ value }: { value?: Integration }) {
  const { client } = useConsole();
  const connectors = useQuery({ queryKey: ['connectors'], queryFn: () => client.connectors.list() });
  return (
    <>
      <NameFields name={value?.name} description={value?.description} />
      <label>
        Connector
        <select name="connector" defaultValue={value?.connector ?? ''} key={connectors.data?.length ?? 0}>
          <option value="">None</option>
          {connectors.data?.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </label>
    </>
  );
}

/** The account's integrations (the groups workflows belong to): create, edit, delete once empty. */
export function Integrations() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['integrations'], queryFn: () => client.integrations.list() });
  const workflows = useQuery({ queryKey: ['workflows'], queryFn: () => client.workflows.listAll() });
  const counts = new Map<string, number>();
  for (const w of workflows.data ?? []) counts.set(w.integrationId, (counts.get(w.integrationId) ?? 0) + 1);
  const create = useMutation({
    mutationFn: ({ name, description, connector }: ReturnType<typeof fieldsOf>) =>
      client.integrations.create({
        name,
        ...(description ? { description } : {}),
        ...(connector ? { connector } : {}),
      }),
    onSuccess: () => void qc.invalidateQueries({ queryKey: ['integrations'] }),
  });
  const onCreate = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    create.mutate(fieldsOf(form), { onSuccess: () => form.reset() });
  };
  return (
    <section aria-labelledby="integrations-title">
      <h2 id="integrations-title">Integrations</h2>
      <p className="muted">An integration groups the workflows a user installs together.</p>
      <form className="card row" onSubmit={onCreate} aria-label="Create an integration">
        <IntegrationFields />
        <button type="submit" disabled={create.isPending}>
          Create integration
        </button>
      </form>
      {create.error ? <ErrorText error={create.error} /> : null}
      <QueryState query={list} empty="No integrations yet: create one to add workflows to it." />
      {list.data?.length ? (
        <Table
          caption="The account's integrations"
          columns={['Name', 'Connector', 'Workflows', 'Created (UTC)', { hidden: 'Actions' }]}
        >
          {list.data.map((i) => (
            <IntegrationRow key={i.integrationId} i={i} workflows={counts.get(i.integrationId) ?? 0} />
          ))}
        </Table>
      ) : null}
    </section>
  );
}

function IntegrationRow({ i, workflows }: { i: Integration; workflows: number }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const edit = useRef<HTMLDialogElement>(null);
  const save = useMutation({
    mutationFn: (body: UpdateIntegrationBody) => client.integrations.update(i.integrationId, body),
    onSuccess: () => {
      edit.current?.close();
      void qc.invalidateQueries({ queryKey: ['integrations'] });
      // Workflows show their integration's name.
      void qc.invalidateQueries({ queryKey: ['workflows'] });
    },
  });
  const onSave = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(fieldsOf(e.currentTarget));
  };
  const titleId = `edit-${i.integrationId}`;
  return (
    <tr>
      <td>
        {i.name}
        {i.description ? <div className="muted">{i.description}</div> : null}
      </td>
      <td>{i.connector ?? <span className="muted">—</span>}</td>
      <td>{workflows}</td>
      <td>{formatTime(i.createdAt)}</td>
      <td>
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => {
              save.reset();
              edit.current?.showModal();
            }}
          >
            Edit<span className="sr-only"> {i.name}</span>
          </button>
          <ConfirmDelete
            trigger={
              <>
                Delete<span className="sr-only"> {i.name}</span>
              </>
            }
            title={`Delete ${i.name}?`}
            confirm="Delete integration"
            action={() => client.integrations.delete(i.integrationId)}
            onDone={() => void qc.invalidateQueries({ queryKey: ['integrations'] })}
          >
            <p>
              {workflows
                ? `It has ${workflows} workflow(s): the service keeps an integration while it has workflows.`
                : 'It has no workflows. This cannot be undone.'}
            </p>
          </ConfirmDelete>
        </div>
        <dialog ref={edit} aria-labelledby={titleId}>
          <h2 id={titleId}>Edit {i.name}</h2>
          {/* The dialog's form starts from the saved values each time it opens (key). */}
          <form className="stack" onSubmit={onSave} key={`${i.name}|${i.description}|${i.connector}`}>
            <IntegrationFields value={i} />
            {save.error ? <ErrorText error={save.error} /> : null}
            <div className="actions">
              <button type="submit" disabled={save.isPending}>
                Save
              </button>
              <button type="button" className="secondary" onClick={() => edit.current?.close()}>
                Cancel
              </button>
            </div>
          </form>
        </dialog>
      </td>
    </tr>
  );
}
