import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useConsole } from '../session.tsx';

// CodeMirror and the JSON Schema validator load only when a definition is shown (their own chunk).
const JsonEditor = lazy(() => import('./json-editor.tsx'));

/** The contract's types an editor checks against. */
export type ContractSchema = 'WorkflowDefinition' | 'DeclarativeConnector';

/** The contract's JSON Schema of one of its types, from the service's own OpenAPI document. */
function useDefinitionSchema(name: ContractSchema) {
  const { client } = useConsole();
  const openapi = useQuery({
    queryKey: ['openapi'],
    queryFn: () => client.meta.openapi(),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return useQuery({
    queryKey: ['contract-schema', name],
    enabled: !!openapi.data,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: async () => (await import('./schema-lint.ts')).schemaFromOpenApi(openapi.data as never, name),
  });
}

export interface DefinitionEditorProps {
  label: string;
  /** The text it starts with; the editor owns it afterwards (a new `key` starts it again). */
  value: string;
  onChange(text: string): void;
  /** The problems the editor found last (shown below it), and where it reports new ones. */
  errors: string[];
  onErrors(messages: string[]): void;
  /** What the text is checked against: a workflow definition by default. */
  schema?: ContractSchema;
}

/** A definition in the JSON editor, checked as it is typed against the contract, its problems listed. */
export function DefinitionEditor({
  label,
  value,
  onChange,
  errors,
  onErrors,
  schema: name = 'WorkflowDefinition',
}: DefinitionEditorProps) {
  const schema = useDefinitionSchema(name);
  return (
    <>
      {schema.data ? (
        <Suspense fallback={<p className="loading">Loading the editor…</p>}>
          <JsonEditor
            label={label}
            value={value}
            schema={schema.data}
            onChange={onChange}
            onErrors={onErrors}
          />
        </Suspense>
      ) : (
        <p className="loading">Loading the editor…</p>
      )}
      {errors.length ? (
        <div className="card" role="status">
          <p>
            <strong>{errors.length === 1 ? '1 problem:' : `${errors.length} problems:`}</strong>
          </p>
          <ul className="lint">
            {errors.map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  );
}
