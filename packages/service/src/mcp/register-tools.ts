import { type McpServer, ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { failure, toolResult } from './result-cap.ts';
import { type McpSession, ToolFailure } from './session.ts';
import type { InlayTool } from './tool-list.ts';
import { toolList } from './tool-list.ts';
import { TOOLS } from './tools.ts';

// A tool failure is a result with `isError` and a readable message; unexpected errors are logged, not shown.
const expected = (err: unknown) =>
  err instanceof ToolFailure || (err as { name?: string })?.name === 'ConnectorError';

async function call(s: McpSession, t: InlayTool, args: unknown) {
  try {
    return toolResult(await t.run(s, args), s.ctx.config.maxStepOutputBytes, t.fit);
  } catch (err) {
    if (expected(err)) return failure((err as Error).message);
    s.ctx.logger.error({ err, tool: t.name }, 'MCP tool failed');
    return failure('The tool failed unexpectedly; the error has been logged.');
  }
}

/**
 * Serves the `_inlay` tools the server's restrictions leave visible. The handlers go on the low-level server
 * directly rather than through `McpServer.registerTool`, which would convert every schema to JSON Schema
 * again on each request (the server is built per request): `tools/list` answers a list built once per
 * visible set (tool-list.ts), and `tools/call` validates with the tool's zod schema as before.
 */
export function registerTools(server: McpServer, s: McpSession): void {
  const visible = TOOLS.filter((t) => s.restrictions.tool(t.name));
  // No tool left: no tools capability, and `tools/list` is an unknown method, as with the SDK's registry.
  if (visible.length === 0) return;
  const byName = new Map(visible.map((t) => [t.name, t]));
  server.server.registerCapabilities({ tools: { listChanged: true } });
  server.server.setRequestHandler('tools/list', () => toolList(visible));
  // Arguments that fail the schema are a protocol error (-32602), not a tool result: the caller sent a bad request.
  server.server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    const t = byName.get(name);
    if (!t) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const parsed = t.input.safeParse(args ?? {});
    if (!parsed.success) {
      const detail = parsed.error.issues
        .map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`)
        .join('; ');
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for ${name}: ${detail}`);
    }
    return (await call(s, t, parsed.data)) as never;
  });
}
