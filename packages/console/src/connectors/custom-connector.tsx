import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { navigate } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { ErrorText, formatTime } from '../ui.tsx';
import { ConnectorEditor, pretty } from './connector-editor.tsx';

/** A custom connector's definition (`GET /connectors/{id}/definition`), edited and published with `PUT`. */
export function EditCustomConnector({ id, name }: { id: string; name: string }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const def = useQuery({
    queryKey: ['connector-definition', id],
    queryFn: () => client.connectors.definition(id),
  });
  const save = useMutation({
    mutationFn: (body: unknown) => client.connectors.update(id, body as never),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ['connector-definition', id] });
      void qc.invalidateQueries({ queryKey: ['connectors'] });
    },
  });
  const d = def.data;
  return (
    <section aria-labelledby="definition-title">
      <h2 id="definition-title">Definition{d ? ` (version ${d.version})` : ''}</h2>
      {def.error ? <ErrorText error={def.error} /> : null}
      {d ? (
        <>
          <p className="muted">
            Published {formatTime(d.createdAt)}. Checked as you type against the contract's JSON Schema;
            saving publishes a new version (installed workflows keep working: a version may add actions, not
            drop used ones).
          </p>
          <ConnectorEditor
            key={d.version}
            label={`Definition of ${name}`}
            initial={pretty(d.definition)}
            submitLabel="Save new version"
            pending={save.isPending}
            error={save.error}
            onSubmit={(body) => save.mutate(body)}
          />
          {save.data && !save.isPending && !save.error ? (
            <p role="status" className="notice card">
              Saved version {save.data.version}.
            </p>
          ) : null}
        </>
      ) : def.isPending ? (
        <p className="loading">Loading…</p>
      ) : null}
    </section>
  );
}

/** Delete after a confirmation; the service refuses (409) while an installed workflow uses the connector. */
export function DeleteCustomConnector({ id, name }: { id: string; name: string }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  return (
    <section aria-labelledby="delete-title">
      <h2 id="delete-title">Delete</h2>
      <p>Deleting it also deletes the connections your users made with it and its OAuth app.</p>
      <ConfirmDelete
        trigger={`Delete ${name}…`}
        title={`Delete ${name}?`}
        confirm="Delete connector"
        action={() => client.connectors.delete(id)}
        onDone={() => {
          void qc.invalidateQueries({ queryKey: ['connectors'] });
          navigate('/connectors');
        }}
      >
        <p>Its users' connections and its OAuth app go with it. This cannot be undone.</p>
      </ConfirmDelete>
    </section>
  );
}
