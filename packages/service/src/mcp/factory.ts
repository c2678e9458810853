import { McpServer } from '@modelcontextprotocol/server';
import { registerPrompts } from './prompts.ts';
import { MCP_PROTOCOL_VERSIONS } from './protocol-versions.ts';
import { registerTools } from './register-tools.ts';
import { registerResources } from './resources.ts';
import type { McpSession } from './session.ts';

/** A fresh server per request, shaped by the session: its user, restrictions and ports. */
export function buildMcpServer(s: McpSession): McpServer {
  const server = new McpServer(
    { name: `inlay:${s.server.name}`, version: '0.1.0' },
    {
      supportedProtocolVersions: [...MCP_PROTOCOL_VERSIONS],
      instructions:
        s.server.description ??
        'Inlay connectors and workflows. Start with list_connectors_inlay or list_workflows_inlay.',
    },
  );
  registerTools(server, s);
  registerResources(server, s);
  registerPrompts(server, s);
  return server;
}
