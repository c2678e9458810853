import type { Request } from 'express';
import { LRUCache } from 'lru-cache';
import { canonicalJson, canonicalJsonParts } from '../http/canonical-json.ts';
import { notFound } from '../http/problem.ts';
import { preparedPerStore } from '../store/prepared.ts';
import type { Store } from '../store/store.ts';
import { checkLookedUp, USER_CTE, userLookup } from '../users/resolve-user.ts';
import type { LogPage } from './executions.ts';
import { CUT_INPUT, CUT_RESULT, INPUT, ISO, opt, RESULT, stepBytes } from './step-log-sql.ts';

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
// both count, although the engine never writes a step without updating its run in the same statement. One run's
// part starts with its id and holds no `;` (which joins the runs' parts): it is also the fingerprint of its entry.
const FINGERPRINT = `concat(e.id, ' ', e.x, ' ', st.xs, ' ', rr.ids::text)`;
const JOIN = ';';

// The ids of a run's reruns, by `executions_rerun_of_idx`.
const RERUNS = `cross join lateral (select array(
       -- The fence keeps the lookup on executions_rerun_of_idx: without statistics (PGlite never gathers any)
       -- the planner would rather walk all of the user's runs in executions_user_started_idx order, per run.
       select r.id from (select r.id, r.user_id, r.started_at from executions r where r.rerun_of = e.id offset 0) r
       where r.user_id = e.user_id order by r.started_at, r.id) as ids) rr`;

// A run's steps by the primary key (execution, position): printed, or only their `xmin`s. Steps are printed
// whole while the run's running total of `stepBytes` stays within its share of the page (`budget`, SQL); each
// step past it is cut to a marker naming the route that returns the run whole.
const STEPS = (budget: string) => `cross join lateral (
       select coalesce(string_agg(case when s.upto <= ${budget} then ${RESULT} else ${CUT_RESULT(budget)} end, ','
                                  order by s.position), '') as results,
              coalesce(string_agg(case when s.upto <= ${budget} then ${INPUT} else ${CUT_INPUT(budget)} end, ','
                                  order by s.position), '') as inputs,
              coalesce(string_agg(s.xmin::text, '.' order by s.position), '') as xs
       from (select s.*, s.xmin, sum(${stepBytes('s')}) over (order by s.position) as upto
             from execution_steps s where s.execution_id = e.id) s) st`;
const STEP_XMINS = `cross join lateral (
       select coalesce(string_agg(s.xmin::text, '.' order by s.position), '') as xs
       from execution_steps s where s.execution_id = e.id) st`;

// `e` is lateral so the page is an index range scan of (user, workflow, startedAt) at any history size.
const runsOf = (
  dir: 'asc' | 'desc',
  columns: string,
) => `(select ${columns}, e.xmin::text as x from executions e
           where e.user_id = u.id and e.workflow_id = w.id and e.account_id = $1
             and ($7::text[] is null or e.status = any($7::text[]))
           order by e.started_at ${dir}, e.id ${dir} limit $5 offset $6) e
     ${RERUNS}`;

const FOUND = `with ${USER_CTE},
  w as (select id from workflows where id = $4::uuid and account_id = $1)
  select u.id as "userId", u.username, w.id as workflow`;

/**
 * The page composed: `page` the JSON array, or `entries` its entries joined by `RECORD` for a node that keeps
 * them (the fingerprint lists their runs in the same order). The separator cannot occur in an entry: every value
 * in one is printed by PostgreSQL's JSON output, which escapes control characters, or is a uuid, number or time.
 */
export const pageSql = (dir: 'asc' | 'desc', as: 'page' | 'entries') => `${FOUND}, p.${as}, p.fingerprint
  from u left join w on true left join lateral (
    select ${
      as === 'page'
        ? `'[' || coalesce(string_agg(${ENTRY}, ',' order by e.started_at ${dir}, e.id ${dir}), '') || ']'`
        : `coalesce(string_agg(${ENTRY}, chr(30) order by e.started_at ${dir}, e.id ${dir}), '')`
    } as ${as},
           coalesce(string_agg(${FINGERPRINT}, '${JOIN}' order by e.started_at ${dir}, e.id ${dir}), '') as fingerprint
     from ${runsOf(dir, 'e.*')}
     ${STEPS('$8::bigint')}) p on true`;
const RECORD = '\x1e';

/** The fingerprint alone: the same rows as `pageSql` reads, without composing anything. */
export const fingerprintSql = (dir: 'asc' | 'desc') => `${FOUND},
    (select coalesce(string_agg(${FINGERPRINT}, '${JOIN}' order by e.started_at ${dir}, e.id ${dir}), '')
     from ${runsOf(dir, 'e.id, e.user_id, e.started_at')}
     ${STEP_XMINS}) as fingerprint
  from u left join w on true`;

/** Some runs' entries, each with its fingerprint, by id within the account (`$1`): what a node does not keep. */
export const entriesSql = `select e.id, ${ENTRY} as entry, ${FINGERPRINT} as fingerprint
  from (select e.*, e.xmin::text as x from executions e where e.id = any($2::uuid[]) and e.account_id = $1) e
  ${RERUNS}
  ${STEPS('$3::bigint')}`;

type FoundRow = { userId: string; username: string; workflow: string | null; fingerprint: string | null };
type PageRow = FoundRow & { page: string | null };
type EntriesRow = FoundRow & { entries: string | null };
type EntryRow = { id: string; entry: string; fingerprint: string };
// Planning these statements costs PGlite about ten times running them.
const pageStatements = {
  asc: preparedPerStore<PageRow>('inlay_log_page_json_asc', pageSql('asc', 'page'), { planOnce: true }),
  desc: preparedPerStore<PageRow>('inlay_log_page_json_desc', pageSql('desc', 'page'), { planOnce: true }),
};
const pageEntriesStatements = {
  asc: preparedPerStore<EntriesRow>('inlay_log_page_entries_asc', pageSql('asc', 'entries'), {
    planOnce: true,
  }),
  desc: preparedPerStore<EntriesRow>('inlay_log_page_entries_desc', pageSql('desc', 'entries'), {
    planOnce: true,
  }),
};
const fingerprintStatements = {
  asc: preparedPerStore<FoundRow>('inlay_log_page_fingerprint_asc', fingerprintSql('asc'), {
    planOnce: true,
  }),
  desc: preparedPerStore<FoundRow>('inlay_log_page_fingerprint_desc', fingerprintSql('desc'), {
    planOnce: true,
  }),
};
const entriesStatement = preparedPerStore<EntryRow>('inlay_log_entries_json', entriesSql, {
  planOnce: true,
});

export type LogPageQuery = Pick<LogPage, 'workflowId' | 'page' | 'limit' | 'order' | 'status'>;

interface Kept {
  userId: string;
  fingerprint: string;
  body: Buffer;
}

interface KeptEntry {
  fingerprint: string;
  /** The entry as `JSON.stringify` prints it. */
  text: string;
}

export interface LogPagesOptions {
  /** Memory for whole pages, per request shape; 0 keeps none. */
  pageBytes: number;
  /** Memory for runs' entries, which any page showing the run reuses; 0 keeps none. */
  entryBytes: number;
  /** A run's share of a page: its steps past this many bytes are cut (`INLAY_MAX_LOG_ENTRY_BYTES`). */
  maxEntryBytes: number;
}

/**
 * The logs route's answers, `{"data":[…]}` as bytes, composed by the database (one text value, so neither
 * driver parses rows and columns) and kept on two levels, both served again only after the database, asked for
 * the page's fingerprint (ids and row versions, on any node's writes), says nothing they show has changed, which
 * costs a fraction of composing:
 * - whole pages, per request shape: a page asked for again;
 * - each run's entry: a page that changed (a new run shifts every page of a busy workflow by one, a running run
 *   changes its own entry only) is assembled from the entries kept, and the database composes only the others.
 * Errors as `resolveUser`'s, then a 404 for a workflow outside the account. The same bytes as
 * `JSON.stringify({data: logPage(…)})`.
 */
export class LogPages {
  readonly #kept?: LRUCache<string, Kept>;
  readonly #entries?: LRUCache<string, KeptEntry>;
  readonly #maxEntryBytes: number;

  constructor(
    private readonly store: Store,
    opts: LogPagesOptions,
  ) {
    if (opts.pageBytes > 0) this.#kept = new LRUCache({ maxSize: opts.pageBytes, ttl: 300_000 });
    if (opts.entryBytes > 0) this.#entries = new LRUCache({ maxSize: opts.entryBytes, ttl: 300_000 });
    this.#maxEntryBytes = opts.maxEntryBytes;
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
    const entries = this.#entries;
    let page: { row: FoundRow; body: Buffer } | undefined;
    if (kept || (entries && entries.size > 0)) {
      const [row] = await fingerprintStatements[p.order](this.store)(values);
      found(req, ref, row);
      if (kept && row!.fingerprint === kept.fingerprint && row!.userId === kept.userId) return kept.body;
      const body = entries && (await this.#assemble(lookup.accountId, row!.fingerprint!, entries));
      if (body) page = { row: row!, body };
    }
    page ??= await this.#compose(req, ref, p.order, values);
    this.#kept?.set(
      key,
      { userId: page.row.userId, fingerprint: page.row.fingerprint!, body: page.body },
      { size: key.length + page.row.fingerprint!.length + page.body.length },
    );
    return page.body;
  }

  /** The page composed whole by the database; its entries kept, when this node keeps entries. */
  async #compose(
    req: Request,
    ref: string | undefined,
    order: 'asc' | 'desc',
    values: unknown[],
  ): Promise<{ row: FoundRow; body: Buffer }> {
    const entries = this.#entries;
    if (!entries) {
      const [row] = await pageStatements[order](this.store)([...values, this.#maxEntryBytes]);
      found(req, ref, row);
      return { row: row!, body: Buffer.from(`{"data":${canonicalJson(row!.page!)}}`) };
    }
    const [row] = await pageEntriesStatements[order](this.store)([...values, this.#maxEntryBytes]);
    found(req, ref, row);
    const texts = row!.entries ? canonicalJsonParts(row!.entries, RECORD) : [];
    const fingerprints = row!.fingerprint!.split(JOIN);
    for (const [i, text] of texts.entries()) this.#keepEntry(fingerprints[i]!, text);
    return { row: row!, body: Buffer.from(`{"data":[${texts.join(',')}]}`) };
  }

  /**
   * The page whose runs' parts `fingerprint` lists, from kept entries and the database's for the others; nothing
   * when more than half are not kept (composing the page whole is cheaper then).
   */
  async #assemble(
    accountId: string,
    fingerprint: string,
    entries: LRUCache<string, KeptEntry>,
  ): Promise<Buffer | undefined> {
    const runs = fingerprint === '' ? [] : fingerprint.split(JOIN);
    const texts: (string | undefined)[] = runs.map((fp) => {
      const e = entries.get(idOf(fp));
      return e?.fingerprint === fp ? e.text : undefined;
    });
    const missing = runs.flatMap((fp, i) => (texts[i] === undefined ? [idOf(fp)] : []));
    if (missing.length * 2 > runs.length) return undefined;
    if (missing.length > 0) {
      const composed = new Map<string, string>();
      for (const r of await entriesStatement(this.store)([accountId, missing, this.#maxEntryBytes])) {
        // Kept under the fingerprint it was composed with, which a write since the page's may have made newer.
        composed.set(r.id, this.#keepEntry(r.fingerprint, canonicalJson(r.entry)));
      }
      runs.forEach((fp, i) => {
        texts[i] ??= composed.get(idOf(fp));
      });
    }
    // A run deleted since the fingerprint was read is left out, as the next fingerprint will.
    return Buffer.from(`{"data":[${texts.filter((t) => t !== undefined).join(',')}]}`);
  }

  #keepEntry(fingerprint: string, text: string): string {
    this.#entries?.set(
      idOf(fingerprint),
      { fingerprint, text },
      { size: fingerprint.length + text.length + 64 },
    );
    return text;
  }
}

/** A run's id: its fingerprint's first part. */
const idOf = (fingerprint: string) => fingerprint.slice(0, fingerprint.indexOf(' '));

function found(req: Request, ref: string | undefined, row: FoundRow | undefined) {
  checkLookedUp(req, ref, row && { id: row.userId, username: row.username });
  if (!row?.workflow || row.fingerprint === null) throw notFound('Workflow');
}
