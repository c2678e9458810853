import type { AppContext } from '../context.ts';
import type { UserRow } from '../users/users.ts';
import type { DefinitionCache } from '../workflows/definitions.ts';
import type { Restrictions } from './restrictions.ts';
import type { McpServerRow } from './servers.ts';

/** What the engine and the credential flows lend the MCP tools that act (run, execute, connect). */
export interface McpPorts {
  executeAction(
    s: McpSession & { user: UserRow },
    req: {
      connectorId: string;
      actionId: string;
      parameters: Record<string, unknown>;
      credentialId?: string;
    },
  ): Promise<{ executionId: string; statusCode?: number; output: unknown; truncated?: boolean }>;
  runWorkflow(
    s: McpSession & { user: UserRow },
    workflowId: string,
    data: Record<string, unknown>,
  ): Promise<string[]>;
  createCredential(
    s: McpSession & { user: UserRow },
    req: {
      connectorId: string;
      authenticationType: string;
      redirectUri?: string;
      fields?: Record<string, string>;
      credentialId?: string;
    },
  ): Promise<{ credentialId: string; status: string; authorizeUrl?: string }>;
  /**
   * Admits one `proxy_request_inlay` call: a slot of the user's concurrent calls (shared with
   * `execute_action_inlay`) and a point of the user's proxy quota. Resolves with the slot's release.
   */
  proxySlot(s: McpSession & { user: UserRow }): Promise<() => void>;
}

/** One MCP request: who calls, for which user, through which server and its restrictions. */
export interface McpSession {
  ctx: AppContext;
  defs: DefinitionCache;
  ports: McpPorts;
  server: McpServerRow;
  accountId: string;
  user?: UserRow;
  /** `x-credential-id`: the credential tools use when none is named. */
  credentialId?: string;
  /** `x-redirect-uri`: where an OAuth connection started by `create_credential_inlay` returns. */
  redirectUri?: string;
  restrictions: Restrictions;
}

export class ToolFailure extends Error {
  override name = 'ToolFailure';
}

export function requireUser(s: McpSession): McpSession & { user: UserRow } {
  if (!s.user)
    throw new ToolFailure(
      'This tool acts for a user: authenticate with a user JWT, or send x-inlay-user-token or x-inlay-userid with an API key.',
    );
  return s as McpSession & { user: UserRow };
}
