import type { McpRestrictions } from '@inlay/contract';

/**
 * Built-ins an agent may call only when the server's `connectors.allow` names them: `http` reaches any URL the
 * egress policy lets through, `transform` evaluates the agent's own expressions.
 */
export const OPT_IN_CONNECTORS: ReadonlySet<string> = new Set(['http', 'transform']);

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

  /** Tools can be hidden by name in the action lists (e.g. `run_workflow_inlay`). */
  tool(name: string): boolean {
    const { allow, block } = this.r.actions ?? {};
    if (block?.includes(name)) return false;
    const tools = allow?.filter((a) => a.endsWith('_inlay'));
    return !tools?.length || tools.includes(name);
  }
}
