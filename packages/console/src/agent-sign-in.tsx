import { CopyButton } from './copy-button.tsx';

/** An agent's `mcp.json` for a server: its URL, and the user's token as the bearer. */
export const agentConfig = (url: string) =>
  JSON.stringify(
    {
      servers: {
        inlay: {
          type: 'http',
          url,
          headers: { Authorization: 'Bearer <user token from GET /users/{userId}/token>' },
        },
      },
    },
    null,
    2,
  );

/**
 * How an agent reaches an MCP server and proves who it acts for, with a client configuration to copy: the
 * server's URL in it when one was just created, a placeholder otherwise.
 */
export function AgentSignIn({ url }: { url?: string }) {
  const config = agentConfig(url ?? `${window.location.origin}/mcp/<serverId>/<accessToken>`);
  return (
    <section className="card stack" aria-labelledby="agent-sign-in-h">
      <h2 id="agent-sign-in-h">How an agent signs in</h2>
      <ol>
        <li>
          <strong>The server's URL</strong> names the server and holds its access token: it is shown once,
          when the server is created. The agent's MCP client connects to it (Streamable HTTP).
        </li>
        <li>
          <strong>A bearer token on every request</strong> says whom the agent acts for:{' '}
          <code>Authorization: Bearer &lt;user token&gt;</code>, a user's token from your backend (
          <code>GET /users/{'{userId}'}/token</code>), acts for that user alone; or an API key of this account
          with <code>x-inlay-userid: &lt;user id or username&gt;</code>.
        </li>
      </ol>
      <p>An agent's client configuration (mcp.json, read by VS Code, Cursor, Claude Code and others):</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take keyboard focus (axe scrollable-region-focusable) */}
      <pre className="json" tabIndex={0}>
        {config}
      </pre>
      <div className="actions">
        <CopyButton value={config} label="client configuration" />
      </div>
    </section>
  );
}
