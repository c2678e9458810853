-- A workflow's `attention` (GET /workflows) reads credential statuses, finished runs and app-trigger failures.
-- These writes notify the user's change too, so each API node can keep attention in its read cache instead of
-- reading it on every request. Only what can change attention is announced: a run that succeeds after
-- successes, a token refresh or a successful poll notify nobody.
CREATE FUNCTION inlay_notify_run_end() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- A success changes attention only if one of the latest finished runs before it failed. Another run of the
  -- workflow still in flight may be ending in a transaction this one cannot see yet: then it is announced too.
  IF NEW.status = 'succeeded' AND OLD.status NOT IN ('succeeded', 'failed') AND NOT EXISTS (
    SELECT 1 FROM (
      SELECT e.status FROM executions e
      WHERE e.user_id = NEW.user_id AND e.workflow_id = NEW.workflow_id AND e.id <> NEW.id
        AND e.status IN ('succeeded', 'failed')
      ORDER BY e.started_at DESC LIMIT 3) recent
    WHERE recent.status = 'failed') AND NOT EXISTS (
    SELECT 1 FROM executions e
    WHERE e.status IN ('queued', 'running') AND e.user_id = NEW.user_id AND e.workflow_id = NEW.workflow_id
      AND e.id <> NEW.id) THEN
    RETURN NULL;
  END IF;
  PERFORM pg_notify('inlay_changes', 'u:' || NEW.account_id || ':' || NEW.user_id);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Runs inserted or deleted in bulk (history imports, retention, DELETE /users/{id}/logs): one notification per
-- user whose finished runs changed, from the statement's rows rather than a trigger call per row.
CREATE FUNCTION inlay_notify_runs_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM pg_notify('inlay_changes', 'u:' || r.account_id || ':' || r.user_id)
    FROM (SELECT DISTINCT account_id, user_id FROM inlay_new_runs WHERE status IN ('succeeded', 'failed')) r;
  ELSE
    PERFORM pg_notify('inlay_changes', 'u:' || r.account_id || ':' || r.user_id)
    FROM (SELECT DISTINCT account_id, user_id FROM inlay_old_runs WHERE status IN ('succeeded', 'failed')) r;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER inlay_attention AFTER UPDATE OF status ON executions FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status AND (NEW.status IN ('succeeded', 'failed') OR OLD.status IN ('succeeded', 'failed'))) EXECUTE FUNCTION inlay_notify_run_end();
--> statement-breakpoint
CREATE TRIGGER inlay_attention_insert AFTER INSERT ON executions REFERENCING NEW TABLE AS inlay_new_runs FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_runs_changed();
--> statement-breakpoint
CREATE TRIGGER inlay_attention_delete AFTER DELETE ON executions REFERENCING OLD TABLE AS inlay_old_runs FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_runs_changed();
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON executions FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
CREATE TRIGGER inlay_attention AFTER INSERT OR DELETE ON credentials FOR EACH ROW EXECUTE FUNCTION inlay_notify_change('user_id');
--> statement-breakpoint
CREATE TRIGGER inlay_attention_update AFTER UPDATE OF status, status_reason, status_changed_at ON credentials FOR EACH ROW WHEN ((OLD.status, OLD.status_reason, OLD.status_changed_at) IS DISTINCT FROM (NEW.status, NEW.status_reason, NEW.status_changed_at)) EXECUTE FUNCTION inlay_notify_change('user_id');
--> statement-breakpoint
CREATE TRIGGER inlay_changes_truncate AFTER TRUNCATE ON credentials FOR EACH STATEMENT EXECUTE FUNCTION inlay_notify_change('all');
--> statement-breakpoint
-- Polls record their state on every run; only a change to the failure fields attention shows is announced.
CREATE TRIGGER inlay_attention AFTER UPDATE OF trigger_state ON user_workflows FOR EACH ROW WHEN ((OLD.trigger_state->'failures', OLD.trigger_state->'lastError', OLD.trigger_state->'failingSince') IS DISTINCT FROM (NEW.trigger_state->'failures', NEW.trigger_state->'lastError', NEW.trigger_state->'failingSince')) EXECUTE FUNCTION inlay_notify_change('user_id');
