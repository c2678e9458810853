import type { McpRestrictions } from '@inlay/contract';

/**
 * Built-ins an agent may call only when the server's `connectors.allow` names them: `http` reaches any URL the
 * egress policy lets through, `transform` evaluates the agent's own expressions.
 */
export const OPT_IN_CONNECTORS: ReadonlySet<string> = new Set(['http', 'transform']);

/** The action-list entry that names a connector's proxy: `github.proxy`. */
export const PROXY_ACTION = '.proxy';
const PROXY_TOOL = 'proxy_request_inlay';

/** What a server's restrictions let through: connectors, `connector.action` pairs and tool names. */
export class Restrictions {
  constructor(private readonly r: McpRestrictions) {}

  /** Whether an agent may use this connector directly (list it, read it, call its actions). */
  connector(id: string): boolean {
    const { allow } = this.r.connectors ?? {};
    if (OPT_IN_CONNECTORS.has(id)) return Boolean(allow?.includes(id)) && this.listed(id);
    return this.listed(id);
  }

  /**
   * Whether a workflow the account wrote may call this app when an agent runs it: the lists as written,
   * without the opt-in rule above (the workflow, not the agent, chose the URL or the expression).
   */
  listed(id: string): boolean {
    const { allow, block } = this.r.connectors ?? {};
    if (block?.includes(id)) return false;
    return !allow || allow.includes(id);
  }

  action(connectorId: string, actionId: string): boolean {
    if (!this.connector(connectorId)) return false;
    const key = `${connectorId}.${actionId}`;
    const { allow, block } = this.r.actions ?? {};
    if (block?.includes(key)) return false;
    const pairs = allow?.filter((a) => a.includes('.'));
    return !pairs?.length || pairs.includes(key);
  }

  /**
   * Whether an agent may send any request to this connector through `proxy_request_inlay`. The proxy reaches
   * every endpoint, so it is held to the action lists as a whole: an action allow list lets it through only where
   * it names `connector.proxy`, and an action block list that names any of the connector's actions (or
   * `connector.proxy`) shuts it, since a proxied request could do what the blocked action does.
   */
  proxy(connectorId: string): boolean {
    if (!this.connector(connectorId)) return false;
    const key = `${connectorId}${PROXY_ACTION}`;
    const { allow, block } = this.r.actions ?? {};
    if (block?.some((b) => b.startsWith(`${connectorId}.`))) return false;
    const pairs = allow?.filter((a) => a.includes('.'));
    return !pairs?.length || pairs.includes(key);
  }

  /**
   * Tools can be hidden by name in the action lists (e.g. `run_workflow_inlay`). `proxy_request_inlay` is also
   * hidden when an action allow list names no `connector.proxy`: no connector could be proxied.
   */
  tool(name: string): boolean {
    const { allow, block } = this.r.actions ?? {};
    if (block?.includes(name)) return false;
    const tools = allow?.filter((a) => a.endsWith('_inlay'));
    if (tools?.length && !tools.includes(name)) return false;
    if (name === PROXY_TOOL) {
      const pairs = allow?.filter((a) => a.includes('.'));
      if (pairs?.length && !pairs.some((a) => a.endsWith(PROXY_ACTION))) return false;
    }
    return true;
  }
}
