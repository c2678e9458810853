// The SQL that prints one step of a logs page exactly as `toLogEntry` and `JSON.stringify` would (`log-page.ts`
// composes whole pages from it), and the trigger that prints the fixed parts once, when the step is written.

// What Date#toISOString makes of a timestamp (milliseconds truncated, as the driver's Date does).
export const ISO = (col: string) => `to_char(${col} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
/** A `,"key":value` member, or NULL (which `concat` skips) when `value` is NULL: the seed leaves such keys out. */
export const opt = (key: string, value: string) => `',"${key}":' || ${value}`;
/** A JSON value JavaScript would treat as false (`if (x)` in `toLogEntry`), as NULL. */
const truthy = (col: string) =>
  `case when ${col} is null or ${col} in ('null'::jsonb, 'false'::jsonb, '0'::jsonb, '""'::jsonb) then null else ${col}::text end`;

/**
 * A step's fragments, over the row `s` names: the page's alias, or the trigger's `NEW` (plpgsql evaluates an
 * assignment that reads `NEW` directly, several times faster than a `select … from (select NEW.*)`).
 */
const step = (s: string) => {
  const tail = (
    truncated: string,
  ) => `concat(',"stepId":', to_json(${s}.step_id), ${opt('name', `to_json(nullif(${s}.name, ''))`)},
    ',"connector":', to_json(${s}.connector), ',"action":', to_json(${s}.action), ',"status":', to_json(${s}.status),
    ',"attempts":', ${s}.attempts, ${opt('error', truthy(`${s}.error`))},
    case when ${truncated} then ',"truncated":true' end, ${opt('iteration', `${s}.iteration`)},
    ${opt('iterationPath', iterationPath)},
    ${opt('parentStepId', `to_json(nullif(${s}.parent_step_id, ''))`)}, ${opt('branch', `to_json(nullif(${s}.branch, ''))`)}, '}')`;
  /**
   * `seedItems` of `toLogEntry`: an item whose `json` is neither an object nor null (rows written before items
   * were normalised) holds it as `{value}`; the check is one path query, the rewrite only for such rows.
   */
  const needsRewrite = `jsonb_path_exists(${s}.data, 'lax $[*][*] ? (!(exists(@.json)) || (@.json.type() != "object" && @.json.type() != "null"))')`;
  const rewrite = `(select '[' || coalesce(string_agg(
        (select '[' || coalesce(string_agg(
           case when jsonb_typeof(i.item->'json') in ('object', 'null') or jsonb_typeof(i.item) <> 'object' then i.item::text
                -- The spread keeps \`json\` where it was; an item without one gets it last, as \`{}\` (undefined dropped).
                when i.item ? 'json' then jsonb_set(i.item, '{json}', jsonb_build_object('value', i.item->'json'))::text
                when i.item = '{}'::jsonb then '{"json":{}}'
                else left(i.item::text, -1) || ',"json":{}}' end,
           ',' order by i.n), '') || ']'
         from jsonb_array_elements(r.run) with ordinality i(item, n)),
        ',' order by r.n), '') || ']'
      from jsonb_array_elements(${s}.data) with ordinality r(run, n))`;
  // `iterationPathOf` of `toLogEntry`: the path after the `:` of the step key, `2.0` as `[2,0]`.
  const iterationPath = `case when ${s}.iteration is not null and strpos(${s}.step_key, ':') > 0
    then '[' || replace(split_part(${s}.step_key, ':', 2), '.', ',') || ']' end`;
  return {
    needsRewrite,
    rewrite,
    data: `case when not ${needsRewrite} then ${s}.data::text else ${rewrite} end`,
    // One result of `toLogEntry`, key for key: what comes before its `data`, and what comes after.
    head: `concat('{"startedAt":"', ${ISO(`${s}.started_at`)}, '"',
    ',"stoppedAt":"' || ${ISO(`${s}.stopped_at`)} || '"', ',"connectorId":"', ${s}.connector_id, '","data":')`,
    tail: tail(`${s}.truncated`),
    /** The tail of a step cut from a page: `truncated` whatever the row says. */
    cutTail: tail('true'),
  };
};

const page = step('s');
const written = step('NEW');

/** A step's result composed from its columns: how rows written before `log_head` existed are read. */
const COMPOSED_RESULT = `${page.head} || ${page.data} || ${page.tail}`;

/**
 * A step's result as the logs page reads it: the parts the `inlay_step_log_parts` trigger wrote with the row
 * around its `data` as stored (or as rewritten, in `log_data`), so a page costs the database a concatenation per
 * step instead of two timestamps formatted, a path query and a dozen values printed.
 */
export const RESULT = `case when s.log_head is null then ${COMPOSED_RESULT}
    else s.log_head || coalesce(s.log_data, s.data::text) || s.log_tail end`;

/**
 * What a step counts toward its run's share of a logs page (`INLAY_MAX_LOG_ENTRY_BYTES`): its output and input
 * as stored, in bytes of the JSON PostgreSQL prints. `stepsOf` reads the same figure for the JavaScript composition.
 */
export const stepBytes = (s: string) =>
  `${stepDataBytes(s)} + octet_length(coalesce(${s}.input::text, 'null'))`;
/** The bytes of a step's output as stored, as PostgreSQL prints it. */
export const stepDataBytes = (s: string) => `octet_length(coalesce(${s}.log_data, ${s}.data::text))`;

/**
 * Where a step cut from a page can be read whole, as `cutMarker` in `executions.ts` writes it: `e` is the run,
 * `budget` the SQL of the run's share in bytes.
 */
const CUT_MARKER = (
  budget: string,
) => `to_json(concat('[cut from this page: the run''s steps pass ', ${budget},
    ' bytes; GET /workflows/', e.workflow_id, '/logs/', e.id, ' returns the run whole]'))::text`;

/**
 * A step past its run's share of the page: one item, with the first item's id, holding
 * `{truncated, marker, originalBytes}` (as a step output over the size cap is stored), and `truncated: true`.
 */
export const CUT_RESULT = (budget: string) => `concat(${page.head}, '[[{"id":',
    to_json(coalesce(s.data->0->0->>'id', '${NIL_UUID}')), ',"json":{"truncated":true,"marker":', ${CUT_MARKER(budget)},
    ',"originalBytes":', ${stepDataBytes('s')}, '}}]]', ${page.cutTail})`;

/** The input of a step past its run's share of the page: `{truncated, marker}`. */
export const CUT_INPUT = (budget: string) => `concat('{"connectorId":"', s.connector_id,
    '","data":{"truncated":true,"marker":', ${CUT_MARKER(budget)}, '}}')`;

/** The id of a cut step's item when its output has none. */
export const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * The trigger function that keeps a step's parts, on every insert and update of `execution_steps` (the engine's,
 * an operator's in psql, a test's), from the same fragments. A migration holds this text (`0017_step_log_parts`
 * first) and `test/logs.test.ts` checks that the newest one defining the function still does: a change here needs
 * a new migration that replaces the function and clears the parts it printed before (`log_head = null` makes a
 * page compose the row from its columns).
 */
export const STEP_LOG_PARTS_FUNCTION = `CREATE OR REPLACE FUNCTION inlay_step_log_parts() RETURNS trigger LANGUAGE plpgsql AS $fn$
BEGIN
  NEW.log_head := ${written.head};
  NEW.log_tail := ${written.tail};
  IF ${written.needsRewrite} THEN
    NEW.log_data := ${written.rewrite};
  ELSE
    NEW.log_data := NULL;
  END IF;
  RETURN NEW;
END
$fn$;`;

// `asObject` of `toLogEntry`: the seed types an input's `data` as an object.
export const INPUT = `concat('{"connectorId":"', s.connector_id, '","data":',
    case when s.input is null or jsonb_typeof(s.input) = 'null' then '{}'
         when jsonb_typeof(s.input) = 'object' then s.input::text
         else '{"value":' || s.input::text || '}' end, '}')`;
