import type { ImportConnectorResponse } from '@inlay/contract';
import { useMutation } from '@tanstack/react-query';
import { type ChangeEvent, type FormEvent, useState } from 'react';
import { useConsole } from '../session.tsx';
import { ServiceErrors } from './connector-editor.tsx';
import { NewConnector } from './new-connector.tsx';

/**
 * An OpenAPI (or Swagger) document pasted or read from a local file in the browser (never fetched by URL),
 * previewed as a draft with `POST /connectors/import`: its actions, the warnings, and the draft in the editor
 * to review before it is created with `POST /connectors`.
 */
export function ImportOpenApi() {
  const { client } = useConsole();
  const [document, setDocument] = useState('');
  const preview = useMutation({
    mutationFn: (body: { document: string; id: string; name?: string; baseUrl?: string }) =>
      client.connectors.import(body),
  });
  const onFile = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.currentTarget.files?.[0];
    if (file) setDocument(await file.text());
  };
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const opt = (k: string) => String(f.get(k) ?? '').trim() || undefined;
    preview.mutate({ document, id: String(f.get('id')).trim(), name: opt('name'), baseUrl: opt('baseUrl') });
  };
  return (
    <>
      <form className="card stack" onSubmit={onSubmit}>
        <label>
          OpenAPI document (YAML or JSON)
          <textarea
            name="document"
            rows={10}
            required
            spellCheck={false}
            className="mono"
            value={document}
            onChange={(e) => setDocument(e.currentTarget.value)}
          />
        </label>
        <label>
          Or read a file from this computer
          <input type="file" accept=".yaml,.yml,.json,application/json,application/yaml" onChange={onFile} />
        </label>
        <label>
          Connector id (a slug: its actions are id.operation)
          <input name="id" required pattern="[a-z][a-z0-9_\-]{0,62}" autoComplete="off" />
        </label>
        <label>
          Name (optional: the document's title by default)
          <input name="name" autoComplete="off" />
        </label>
        <label>
          Base URL (optional: the document's server by default)
          <input name="baseUrl" type="url" autoComplete="off" />
        </label>
        <div className="actions">
          <button type="submit" disabled={preview.isPending || !document}>
            {preview.isPending ? 'Reading…' : 'Preview'}
          </button>
        </div>
        <ServiceErrors error={preview.error} />
      </form>
      {preview.data ? <Draft draft={preview.data} /> : null}
    </>
  );
}

function Draft({ draft }: { draft: ImportConnectorResponse }) {
  const n = draft.definition.actions.length;
  return (
    <section aria-labelledby="draft-title">
      <h3 id="draft-title">Draft: {draft.definition.name}</h3>
      <p role="status">
        {n} action{n === 1 ? '' : 's'}, {draft.warnings.length} warning
        {draft.warnings.length === 1 ? '' : 's'}.
      </p>
      {draft.warnings.length ? (
        <ul className="lint card" aria-label="Import warnings">
          {[
            ...new Set(draft.warnings.map((w) => `${w.operation ? `${w.operation}: ` : ''}${w.message}`)),
          ].map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <NewConnector
        key={JSON.stringify(draft.definition)}
        initial={draft.definition}
        label={`Draft definition of ${draft.definition.name}`}
      />
    </section>
  );
}
