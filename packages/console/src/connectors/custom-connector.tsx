import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { forgetQueries } from '../forget-queries.ts';
import { navigate } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { ErrorText, formatTime } from '../ui.tsx';
import { ConnectorEditor, pretty } from './connector-editor.tsx';
import { ConnectorVersions } from './connector-versions.tsx';

/**
 * A custom connector's definition (`GET /connectors/{id}/definition`), edited and published with `PUT`, and its
 * earlier versions, one of which can be loaded into the editor to publish again.
 */
export function EditCustomConnector({ id, name }: { id: string; name: string }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const def = useQuery({
    queryKey: ['connector-definition', id],
    queryFn: () => client.connectors.definition(id),
  });
  // An earlier version loaded into the editor (`n` restarts the editor when the same one is loaded again).
  const [loaded, setLoaded] = useState<{ version: number; text: string; n: number } | null>(null);
  const save = useMutation({
    mutationFn: (body: unknown) => client.connectors.update(id, body as never),
    onSuccess: () => {
      setLoaded(null);
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
          {loaded ? (
            <p role="status" className="notice card">
              Version {loaded.version} is in the editor: saving publishes it as version {d.version + 1}.
            </p>
          ) : null}
          <ConnectorEditor
            key={`${d.version} ${loaded?.n ?? 0}`}
            label={`Definition of ${name}`}
            initial={loaded?.text ?? pretty(d.definition)}
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
          <ConnectorVersions
            key={d.version}
            id={id}
            name={name}
            current={d.version}
            onLoad={(version, text) => setLoaded({ version, text, n: (loaded?.n ?? 0) + 1 })}
          />
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
          navigate('/connectors');
          // A connector created again with the same id starts at version 1: none of these versions are its.
          forgetQueries(qc, ['connector-version', id]);
          void qc.invalidateQueries({ queryKey: ['connectors'] });
        }}
      >
        <p>Its users' connections and its OAuth app go with it. This cannot be undone.</p>
      </ConfirmDelete>
    </section>
  );
}
