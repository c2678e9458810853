-- A step's result on the logs page is printed once, when the step is written, instead of on every page read: the
-- parts before and after its `data` (and `data` itself only when legacy items must be rewritten). Rows written
-- before this migration keep NULL parts, and the page composes them from their columns as before. The function is
-- STEP_LOG_PARTS_FUNCTION of src/executions/step-log-sql.ts; test/logs.test.ts checks that the newest migration
-- defining it holds that text.
ALTER TABLE execution_steps ADD COLUMN log_head text, ADD COLUMN log_tail text, ADD COLUMN log_data text;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION inlay_step_log_parts() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.log_head := concat('{"startedAt":"', to_char(NEW.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), '"',
    ',"stoppedAt":"' || to_char(NEW.stopped_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') || '"', ',"connectorId":"', NEW.connector_id, '","data":');
  NEW.log_tail := concat(',"stepId":', to_json(NEW.step_id), ',"name":' || to_json(nullif(NEW.name, '')),
    ',"connector":', to_json(NEW.connector), ',"action":', to_json(NEW.action), ',"status":', to_json(NEW.status),
    ',"attempts":', NEW.attempts, ',"error":' || case when NEW.error is null or NEW.error in ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb) then null else NEW.error::text end,
    case when NEW.truncated then ',"truncated":true' end, ',"iteration":' || NEW.iteration,
    ',"iterationPath":' || case when NEW.iteration is not null and strpos(NEW.step_key, ':') > 0
    then '[' || replace(split_part(NEW.step_key, ':', 2), '.', ',') || ']' end,
    ',"parentStepId":' || to_json(nullif(NEW.parent_step_id, '')), ',"branch":' || to_json(nullif(NEW.branch, '')), '}');
  IF jsonb_path_exists(NEW.data, 'lax $[*][*] ? (!(exists(@.json)) || (@.json.type() != "object" && @.json.type() != "null"))') THEN
    NEW.log_data := (select '[' || coalesce(string_agg(
        (select '[' || coalesce(string_agg(
           case when jsonb_typeof(i.item->'json') in ('object', 'null') or jsonb_typeof(i.item) <> 'object' then i.item::text
                -- The spread keeps `json` where it was; an item without one gets it last, as `{}` (undefined dropped).
                when i.item ? 'json' then jsonb_set(i.item, '{json}', jsonb_build_object('value', i.item->'json'))::text
                when i.item = '{}'::jsonb then '{"json":{}}'
                else left(i.item::text, -1) || ',"json":{}}' end,
           ',' order by i.n), '') || ']'
         from jsonb_array_elements(r.run) with ordinality i(item, n)),
        ',' order by r.n), '') || ']'
      from jsonb_array_elements(NEW.data) with ordinality r(run, n));
  ELSE
    NEW.log_data := NULL;
  END IF;
  RETURN NEW;
END
$fn$;
--> statement-breakpoint
CREATE TRIGGER inlay_step_log_parts BEFORE INSERT OR UPDATE ON execution_steps FOR EACH ROW EXECUTE FUNCTION inlay_step_log_parts();
