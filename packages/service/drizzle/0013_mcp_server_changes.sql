-- MCP servers are read on every MCP request: each node keeps the rows it looked up (in the read cache), so a
-- server's creation or deletion, on any node, announces a change to its account, as the other watched tables do.
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON mcp_servers FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('account_id');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON mcp_servers FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
