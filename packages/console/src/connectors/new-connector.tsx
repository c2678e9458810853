import { useMutation, useQueryClient } from '@tanstack/react-query';
import { navigate } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { ConnectorEditor, pretty } from './connector-editor.tsx';
import { STARTER } from './starter.ts';

/** `POST /connectors` from the JSON editor, which starts from a working template; then the connector's page. */
export function NewConnector({
  initial = STARTER,
  label = 'New connector definition',
}: {
  initial?: unknown;
  label?: string;
}) {
  const { client } = useConsole();
  const qc = useQueryClient();
  const create = useMutation({
    mutationFn: (body: unknown) => client.connectors.create(body as never),
    onSuccess: (c) => {
      void qc.invalidateQueries({ queryKey: ['connectors'] });
      navigate(`/connectors/${encodeURIComponent(c.id)}`);
    },
  });
  return (
    <ConnectorEditor
      label={label}
      initial={pretty(initial)}
      submitLabel="Create connector"
      pending={create.isPending}
      error={create.error}
      onSubmit={(body) => create.mutate(body)}
    />
  );
}
