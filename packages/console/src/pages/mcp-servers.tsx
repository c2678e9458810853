import type { CreateMcpServerBody, McpRestrictions, McpServer } from '@inlay/client';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { AgentSignIn } from '../agent-sign-in.tsx';
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

/** The restrictions a form's fields say (`{}`: none). */
function restrictionsOf(f: FormData): McpRestrictions {
  const connectors = ruleOf(f, 'connectors');
  const actions = ruleOf(f, 'actions');
  return { ...(connectors ? { connectors } : {}), ...(actions ? { actions } : {}) };
}

/** One rule's fields: allow only or block, and the list (comma separated), starting from `value`. */
function RuleFields({
  name,
  legend,
  label,
  placeholder,
  value,
}: {
  name: 'connectors' | 'actions';
  legend: string;
  label: string;
  placeholder: string;
  value?: Rule;
}) {
  return (
    <fieldset className="row">
      <legend>{legend}</legend>
      <label>
        Rule
        <select name={`${name}Mode`} defaultValue={value?.block ? 'block' : 'allow'}>
          <option value="allow">Allow only</option>
          <option value="block">Block</option>
        </select>
      </label>
      <label>
        {label}
        <input
          name={name}
          placeholder={placeholder}
          defaultValue={(value?.allow ?? value?.block)?.join(', ')}
        />
      </label>
    </fieldset>
  );
}

/** The connectors and actions rules of a server (what `restrictions` holds). */
function RestrictionFields({ value }: { value?: McpRestrictions }) {
  return (
    <>
      <RuleFields
        name="connectors"
        legend="Connectors"
        label="Connector names (comma separated; empty: all)"
        placeholder="slack, github"
        value={value?.connectors}
      />
      <RuleFields
        name="actions"
        legend="Actions"
        label="Actions (connector.action or tool names; empty: all)"
        placeholder="slack.post_message"
        value={value?.actions}
      />
    </>
  );
}

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
    const restrictions = restrictionsOf(f);
    const description = String(f.get('description') ?? '').trim();
    create.mutate(
      {
        name: String(f.get('name')).trim(),
        ...(description ? { description } : {}),
        ...(Object.keys(restrictions).length ? { restrictions } : {}),
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
        <RestrictionFields />
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
      <AgentSignIn url={shown?.url} />
      <QueryState query={list} empty="No MCP servers yet." />
      {list.data?.length ? (
        <Table
          caption="The account's MCP servers"
          columns={['Name', 'Connectors', 'Actions', 'Created (UTC)', { hidden: 'Actions on the server' }]}
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
  const edit = useRef<HTMLDialogElement>(null);
  const save = useMutation({
    mutationFn: (f: FormData) => {
      const description = String(f.get('description') ?? '').trim();
      return client.mcpServers.update(s.serverId, {
        name: String(f.get('name')).trim(),
        description: description || null,
        restrictions: restrictionsOf(f),
      });
    },
    onSuccess: () => {
      edit.current?.close();
      void qc.invalidateQueries({ queryKey: ['mcp-servers'] });
    },
  });
  const onSave = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    save.mutate(new FormData(e.currentTarget));
  };
  const titleId = `edit-${s.serverId}`;
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
        <div className="actions">
          <button
            type="button"
            className="secondary"
            onClick={() => {
              save.reset();
              edit.current?.showModal();
            }}
          >
            Edit<span className="sr-only"> {s.name}</span>
          </button>
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
        </div>
        <dialog ref={edit} aria-labelledby={titleId}>
          <h2 id={titleId}>Edit {s.name}</h2>
          <p className="muted">
            Agents connected to this server get the new restrictions from their next request.
          </p>
          {/* Starts from the saved values each time they change (key). */}
          <form
            className="stack"
            onSubmit={onSave}
            key={JSON.stringify([s.name, s.description, s.restrictions])}
          >
            <NameFields name={s.name} description={s.description} />
            <RestrictionFields value={s.restrictions} />
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
