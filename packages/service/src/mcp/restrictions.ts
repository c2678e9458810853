import type { McpRestrictions } from '@inlay/contract';

/** What a server's restrictions let through: connectors, `connector.action` pairs and tool names. */
export class Restrictions {
  constructor(private readonly r: McpRestrictions) {}

  connector(id: string): boolean {
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
