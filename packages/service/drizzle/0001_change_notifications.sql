-- Every write that can change a cached read (users, workflows, installations, API keys) notifies
-- `inlay_changes`, so each API node drops what it cached for that account or user. PostgreSQL folds
-- identical payloads within one transaction into one notification.
CREATE FUNCTION inlay_notify_change() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    PERFORM pg_notify('inlay_changes', '*');
    RETURN NULL;
  END IF;
  FOREACH r IN ARRAY (CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW] WHEN 'DELETE' THEN ARRAY[OLD] ELSE ARRAY[OLD, NEW] END) LOOP
    CASE TG_ARGV[0]
      WHEN 'account' THEN PERFORM pg_notify('inlay_changes', 'a:' || r.id);
      WHEN 'account_id' THEN PERFORM pg_notify('inlay_changes', 'a:' || r.account_id);
      WHEN 'key' THEN PERFORM pg_notify('inlay_changes', 'k:' || r.account_id);
      WHEN 'user' THEN PERFORM pg_notify('inlay_changes', 'u:' || r.account_id || ':' || r.id);
      WHEN 'user_id' THEN PERFORM pg_notify('inlay_changes', 'u:' || r.account_id || ':' || r.user_id);
    END CASE;
  END LOOP;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER DELETE ON accounts FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('account');
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('key');
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON users FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('user');
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON integrations FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('account_id');
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON workflows FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('account_id');
--> statement-breakpoint
CREATE TRIGGER inlay_changes AFTER INSERT OR UPDATE OR DELETE ON installations FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('user_id');
--> statement-breakpoint
-- The scheduler moves `next_run_at` on every tick; no cached read shows it, so it notifies nobody.
CREATE TRIGGER inlay_changes AFTER INSERT OR DELETE OR UPDATE OF user_id, workflow_id, account_id, installation_id, version, active, trigger_type, event, cron, timezone ON user_workflows FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('user_id');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON accounts FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON api_keys FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON integrations FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON workflows FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON installations FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON user_workflows FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
