import type { CreateMcpServerBody, McpServer } from '@inlay/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { ConfirmDelete } from '../confirm-delete.tsx';
import { NameFields } from '../name-fields.tsx';
import { SecretOnce } from '../secret-once.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { ErrorText, formatTime } from '../ui.tsx';

type Rule = { allow?: string[]; block?: string[] };

const listOf = (v: FormDataEntryValue | null) =>
  String(v ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);

/** `allow` or `block` (never both) from a mode select and a list field. */
function ruleOf(f: FormData, name: string): Rule | undefined {
  const items = listOf(f.get(name));
  const mode = f.get(`${name}Mode`);
  if (!items.length || (mode !== 'allow' && mode !== 'block')) return undefined;
  return { [mode]: items };
}

const describeRule = (r: Rule | undefined) =>
  r?.allow ? `only ${r.allow.join(', ')}` : r?.block ? `all but ${r.block.join(', ')}` : 'all';

/** The account's MCP servers: create (the URL and token shown once), their restrictions, delete. */
export function McpServersPage() {
  const { client } = useConsole();
  const qc = useQueryClient();
  const list = useQuery({ queryKey: ['mcp-servers'], queryFn: () => client.mcpServers.list() });
  const [shown, setShown] = useState<{ url: string; accessToken: string } | null>(null);
  const create = useMutation({
    mutationFn: (body: CreateMcpServerBody) => client.mcpServers.create(body),
    onSuccess: (r) => {
      setShown({ url: r.url, accessToken: r.accessToken });
      void qc.invalidateQueries({ queryKey: ['mcp-servers'] });
    },
  });
  const onCreate = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const f = new FormData(form);
    const connectors = ruleOf(f, 'connectors');
    const actions = ruleOf(f, 'actions');
    const description = String(f.get('description') ?? '').trim();
    create.mutate(
      {
        name: String(f.get('name')).trim(),
        ...(description ? { description } : {}),
        ...(connectors || actions
          ? { restrictions: { ...(connectors ? { connectors } : {}), ...(actions ? { actions } : {}) } }
          : {}),
      } as CreateMcpServerBody,
      // Kept on an error (a misspelt name, say), so it can be corrected rather than typed again.
      { onSuccess: () => form.reset() },
    );
  };
  return (
    <>
      <h1>MCP servers</h1>
      <p className="muted">
        An MCP server gives an AI agent the account's connectors as tools, acting for the user it names.
      </p>
      <form className="card stack" onSubmit={onCreate} aria-label="Create an MCP server">
        <h2>Create</h2>
        <NameFields />
        <fieldset className="row">
          <legend>Connectors</legend>
          <label>
            Rule
            <select name="connectorsMode" defaultValue="allow">
              <option value="allow">Allow only</option>
              <option value="block">Block</option>
            </select>
          </label>
          <label>
            Connector names (comma separated; empty: all)
            <input name="connectors" placeholder="slack, github" />
          </label>
        </fieldset>
        <fieldset className="row">
          <legend>Actions</legend>
          <label>
            Rule
            <select name="actionsMode" defaultValue="allow">
              <option value="allow">Allow only</option>
              <option value="block">Block</option>
            </select>
          </label>
          <label>
            Actions (connector.action; empty: all)
            <input name="actions" placeholder="slack.post_message" />
          </label>
        </fieldset>
        <div className="actions">
          <button type="submit" disabled={create.isPending}>
            Create server
          </button>
        </div>
      </form>
      {create.error ? <ErrorText error={create.error} /> : null}
      {shown ? (
        <SecretOnce
          fields={[
            { label: 'Server URL', value: shown.url, secret: false },
            { label: 'Access token', value: shown.accessToken },
          ]}
          onDone={() => setShown(null)}
        >
          <strong>Copy the URL and token now:</strong> the token is shown only once and stored as a hash.
        </SecretOnce>
      ) : null}
      <QueryState query={list} empty="No MCP servers yet." />
      {list.data?.length ? (
        <Table
          caption="The account's MCP servers"
          columns={['Name', 'Connectors', 'Actions', 'Created (UTC)', { hidden: 'Delete' }]}
        >
          {list.data.map((s) => (
            <ServerRow key={s.serverId} s={s} />
          ))}
        </Table>
      ) : null}
    </>
  );
}

function ServerRow({ s }: { s: McpServer }) {
  const { client } = useConsole();
  const qc = useQueryClient();
  return (
    <tr>
      <td>
        {s.name}
        {s.description ? <div className="muted">{s.description}</div> : null}
      </td>
      <td>{describeRule(s.restrictions.connectors)}</td>
      <td>{describeRule(s.restrictions.actions)}</td>
      <td>{formatTime(s.createdAt)}</td>
      <td>
        <ConfirmDelete
          trigger={
            <>
              Delete<span className="sr-only"> {s.name}</span>
            </>
          }
          title={`Delete ${s.name}?`}
          confirm="Delete server"
          action={() => client.mcpServers.delete(s.serverId)}
          onDone={() => void qc.invalidateQueries({ queryKey: ['mcp-servers'] })}
        >
          <p>Agents using this server's URL and token lose access at once.</p>
        </ConfirmDelete>
      </td>
    </tr>
  );
}
