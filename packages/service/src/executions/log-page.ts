import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { canonicalJson } from '../http/canonical-json.ts';
import { notFound } from '../http/problem.ts';
import { preparedPerStore } from '../store/prepared.ts';
import type { Store } from '../store/store.ts';
import { checkLookedUp, USER_CTE, userLookup } from '../users/resolve-user.ts';
import type { LogPage } from './executions.ts';
import { INPUT, ISO, opt, RESULT } from './step-log-sql.ts';

const ENTRY = `concat('{"executionId":"', e.id, '","startedAt":"', ${ISO('e.started_at')}, '"',
    ',"stoppedAt":"' || ${ISO('e.stopped_at')} || '"',
    ',"finished":', to_json(e.finished), ',"results":[', st.results, '],"inputs":[', st.inputs,
    '],"status":', to_json(e.status), ',"error":', coalesce(e.error::text, 'null'),
    ',"rerunOf":', coalesce(to_json(e.rerun_of)::text, 'null'), ',"workflowId":"', e.workflow_id,
    '","version":', e.version, ',"trigger":{"type":', to_json(e.trigger_type),
    ${opt('event', "to_json(nullif(e.event, ''))")},
    ',"data":', coalesce(nullif(e.trigger, 'null'::jsonb), '{}'::jsonb)::text, '},"summary":', coalesce(to_json(e.summary)::text, 'null'),
    ',"reruns":', array_to_json(rr.ids), '}')`;

// What a page shows changes only when a row it reads does, and every write gives a row a new `xmin` (the writing
// transaction): the ids and `xmin`s of the page's runs, of their steps and the ids of their reruns (with the user
// and workflow found) say whether a kept page is still the one the database would compose now. Runs and steps
// both count, although the engine never writes a step without updating its run in the same statement.
const FINGERPRINT = `concat(e.id, ' ', e.x, ' ', st.xs, ' ', rr.ids::text)`;

// `e` is lateral so the page is an index range scan of (user, workflow, startedAt) at any history size; its steps
// come by the primary key (execution, position), reruns by `executions_rerun_of_idx`.
const runsOf = (
  dir: 'asc' | 'desc',
  columns: string,
) => `(select ${columns}, e.xmin::text as x from executions e
           where e.user_id = u.id and e.workflow_id = w.id and e.account_id = $1
             and ($7::text[] is null or e.status = any($7::text[]))
           order by e.started_at ${dir}, e.id ${dir} limit $5 offset $6) e
     cross join lateral (select array(
       -- The fence keeps the lookup on executions_rerun_of_idx: without statistics (PGlite never gathers any)
       -- the planner would rather walk all of the user's runs in executions_user_started_idx order, per run.
       select r.id from (select r.id, r.user_id, r.started_at from executions r where r.rerun_of = e.id offset 0) r
       where r.user_id = e.user_id order by r.started_at, r.id) as ids) rr`;

export const pageSql = (dir: 'asc' | 'desc') => `with ${USER_CTE},
  w as (select id from workflows where id = $4::uuid and account_id = $1)
  select u.id as "userId", u.username, w.id as workflow, p.page, p.fingerprint
  from u left join w on true left join lateral (
    select '[' || coalesce(string_agg(${ENTRY}, ',' order by e.started_at ${dir}, e.id ${dir}), '') || ']' as page,
           coalesce(string_agg(${FINGERPRINT}, ',' order by e.started_at ${dir}, e.id ${dir}), '') as fingerprint
     from ${runsOf(dir, 'e.*')}
     cross join lateral (
       select coalesce(string_agg(${RESULT}, ',' order by s.position), '') as results,
              coalesce(string_agg(${INPUT}, ',' order by s.position), '') as inputs,
              coalesce(string_agg(s.xmin::text, '.' order by s.position), '') as xs
       from execution_steps s where s.execution_id = e.id) st) p on true`;

/** The fingerprint alone: the same rows as `pageSql` reads, without composing anything. */
export const fingerprintSql = (dir: 'asc' | 'desc') => `with ${USER_CTE},
  w as (select id from workflows where id = $4::uuid and account_id = $1)
  select u.id as "userId", u.username, w.id as workflow,
    (select coalesce(string_agg(${FINGERPRINT}, ',' order by e.started_at ${dir}, e.id ${dir}), '')
     from ${runsOf(dir, 'e.id, e.user_id, e.started_at')}
     cross join lateral (
       select coalesce(string_agg(s.xmin::text, '.' order by s.position), '') as xs
       from execution_steps s where s.execution_id = e.id) st) as fingerprint
  from u left join w on true`;

type FoundRow = { userId: string; username: string; workflow: string | null; fingerprint: string | null };
type PageRow = FoundRow & { page: string | null };
const pageStatements = {
  // Planning this statement costs PGlite about ten times running it.
  asc: preparedPerStore<PageRow>('inlay_log_page_json_asc', pageSql('asc'), { planOnce: true }),
  desc: preparedPerStore<PageRow>('inlay_log_page_json_desc', pageSql('desc'), { planOnce: true }),
};
const fingerprintStatements = {
  asc: preparedPerStore<FoundRow>('inlay_log_page_fingerprint_asc', fingerprintSql('asc'), {
    planOnce: true,
  }),
  desc: preparedPerStore<FoundRow>('inlay_log_page_fingerprint_desc', fingerprintSql('desc'), {
    planOnce: true,
  }),
};

export type LogPageQuery = Pick<LogPage, 'workflowId' | 'page' | 'limit' | 'order' | 'status'>;

interface Kept {
  userId: string;
  fingerprint: string;
  body: Buffer;
}

/**
 * The logs route's answers, `{"data":[…]}` as bytes, composed by the database (one text value, so neither
 * driver parses rows and columns) and kept per request shape: a kept page is served again only after the
 * database, asked for the page's fingerprint in the same kind of statement, says nothing it shows has changed
 * (on any node), which costs a fraction of composing it. Errors as `resolveUser`'s, then a 404 for a workflow
 * outside the account. The same bytes as `JSON.stringify({data: logPage(…)})`.
 */
export class LogPages {
  readonly #kept?: LRUCache<string, Kept>;

  constructor(
    private readonly store: Store,
    maxBytes: number,
  ) {
    if (maxBytes > 0) this.#kept = new LRUCache({ maxSize: maxBytes, ttl: 300_000 });
  }

  async body(req: Request, ref: string | undefined, p: LogPageQuery): Promise<Buffer> {
    const lookup = userLookup(req, ref);
    const values = [
      lookup.accountId,
      lookup.id,
      lookup.username,
      p.workflowId,
      p.limit,
      (p.page - 1) * p.limit,
      p.status ?? null,
    ];
    // The username last: it is the one free-form part.
    const key = JSON.stringify([p.order, ...values.slice(3), ...values.slice(0, 3)]);
    const kept = this.#kept?.get(key);
    if (kept) {
      const [row] = await fingerprintStatements[p.order](this.store)(values);
      found(req, ref, row);
      if (row!.fingerprint === kept.fingerprint && row!.userId === kept.userId) return kept.body;
    }
    const [row] = await pageStatements[p.order](this.store)(values);
    found(req, ref, row);
    const body = Buffer.from(`{"data":${canonicalJson(row!.page!)}}`);
    this.#kept?.set(
      key,
      { userId: row!.userId, fingerprint: row!.fingerprint!, body },
      { size: key.length + row!.fingerprint!.length + body.length },
    );
    return body;
  }
}

function found(req: Request, ref: string | undefined, row: FoundRow | undefined) {
  checkLookedUp(req, ref, row && { id: row.userId, username: row.username });
  if (!row?.workflow || row.fingerprint === null) throw notFound('Workflow');
}
