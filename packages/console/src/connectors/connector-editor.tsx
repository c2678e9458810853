import { isInlayError } from '@inlay/client';
import { useState } from 'react';
import { DefinitionEditor } from '../editor/definition-editor.tsx';
import { ErrorText } from '../ui.tsx';

export const pretty = (v: unknown) => `${JSON.stringify(v, null, 2)}\n`;

/** What the service refused, field by field (`body.actions[0].output: invalid JSONata …`), else its detail. */
export function ServiceErrors({ error, id }: { error: unknown; id?: string }) {
  if (!error) return null;
  if (isInlayError(error) && error.errors.length)
    return (
      <div className="card error-list" role="alert" id={id}>
        <p>
          <strong>The service refused it:</strong> {error.title}
        </p>
        <ul className="lint">
          {error.errors.map((e) => (
            <li key={`${e.field} ${e.rule} ${e.message}`}>
              <span className="mono">{e.field}</span>: {e.message}
            </li>
          ))}
        </ul>
      </div>
    );
  return <ErrorText error={error} />;
}

export interface ConnectorEditorProps {
  /** The editor's accessible name. */
  label: string;
  /** The text it starts with; a new value (with a new `key`) starts over. */
  initial: string;
  submitLabel: string;
  pending: boolean;
  /** What the last save answered, shown next to the editor. */
  error: unknown;
  onSubmit(definition: unknown): void;
}

/**
 * A `DeclarativeConnector` in CodeMirror, linted against the contract's JSON Schema as it is typed; saving is
 * off while it has problems. What the schema cannot check (JSONata, egress, the id) comes back from the service.
 */
export function ConnectorEditor({
  label,
  initial,
  submitLabel,
  pending,
  error,
  onSubmit,
}: ConnectorEditorProps) {
  const [text, setText] = useState(initial);
  const [problems, setProblems] = useState<string[]>([]);
  const submit = () => {
    try {
      onSubmit(JSON.parse(text));
    } catch {
      // jsonParseLinter lists the syntax error; the button is off meanwhile
    }
  };
  return (
    <div>
      <DefinitionEditor
        label={label}
        value={initial}
        schema="DeclarativeConnector"
        onChange={setText}
        errors={problems}
        onErrors={setProblems}
      />
      <ServiceErrors error={error} />
      <div className="actions">
        <button type="button" onClick={submit} disabled={problems.length > 0 || pending}>
          {pending ? 'Saving…' : submitLabel}
        </button>
      </div>
    </div>
  );
}
