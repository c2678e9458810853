/**
 * The MCP protocol revisions this endpoint serves, newest first: 2026-07-28 through `server/discover`, the
 * others through the legacy `initialize` handshake. A legacy client that asks for any other revision is
 * offered 2025-11-25 (the first 2025-era entry). docs/mcp.md lists exactly these.
 */
export const MCP_PROTOCOL_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'];
