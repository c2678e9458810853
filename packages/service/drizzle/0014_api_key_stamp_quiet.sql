-- A key's last-use stamp (written at most once a minute per key and node) changes no cached read, but the
-- trigger announced it: every node then emptied its API-key cache for that account once a minute. Only the
-- columns a cached read shows, or that decide whether the key works, announce a change now.
DROP TRIGGER inlay_changes ON api_keys;
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR DELETE OR UPDATE OF id, account_id, hash, prefix, mode, name, created_at, revoked_at ON api_keys FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('key');
