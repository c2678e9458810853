import { randomUUID } from 'node:crypto';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { setUpAppTrigger, stateOf, triggeredIds } from '@inlay/test-kit/app-trigger-setup';
import { startUpstream, type Upstream } from '@inlay/test-kit/engine';
import { eventually } from '@inlay/test-kit/eventually';
import { privateDatabase } from '@inlay/test-kit/private-database';
import { onPostgres, type Service, startService } from '@inlay/test-kit/service';
import { startFakeAirtable, startFakeAsana, startFakeStripe } from '@inlay/test-kit/trigger-fakes';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEN_LIMIT } from '../../src/engine/app-triggers/trigger-state.ts';
import { executions, userWorkflows } from '../../src/store/schema.ts';

// Polling against providers holding more than a page of existing items: oldest-first lists (Airtable, Asana),
// whose newest items are on their last page, and a newest-first one (Stripe) for the cap per poll.

let airtable: Awaited<ReturnType<typeof startFakeAirtable>>;
let asana: Awaited<ReturnType<typeof startFakeAsana>>;
let stripe: Awaited<ReturnType<typeof startFakeStripe>>;
/** Each run's one step reports the item it was started with here: the order runs ran in. */
let recorder: Upstream;
let svc: Service;
/** Its own database on PostgreSQL: another file's installed triggers would poll these fakes too. */
let db: Awaited<ReturnType<typeof privateDatabase>> | undefined;

const BASE = 'appAbCdEfGhIjKlMn';
const HOUR = 3_600_000;

beforeAll(async () => {
  airtable = await startFakeAirtable(BASE, 'Leads');
  asana = await startFakeAsana();
  stripe = await startFakeStripe();
  recorder = await startUpstream(() => ({ body: { ok: true } }));
  db = onPostgres ? await privateDatabase('inlay_paging') : undefined;
  svc = await startService({
    ownStore: true,
    env: {
      ...(db ? { DATABASE_URL: db.url } : {}),
      INLAY_CONNECTOR_AIRTABLE_BASE_URL: airtable.url,
      INLAY_CONNECTOR_ASANA_BASE_URL: asana.url,
      INLAY_CONNECTOR_STRIPE_BASE_URL: stripe.url,
      INLAY_POLL_MIN_INTERVAL_MS: '100',
      INLAY_SCHEDULER_INTERVAL_MS: '50',
      // One run at a time, taken in the order the poll created them: the recorder sees that order.
      INLAY_WORKER_CONCURRENCY: '1',
      INLAY_EGRESS_ALLOW: '127.0.0.1',
    },
  });
});
afterAll(async () => {
  await svc?.close();
  await db?.drop();
  for (const f of [airtable, asana, stripe, recorder]) await f?.close();
});

const oauth = (name: string) => ({
  name,
  type: 'oauth2' as const,
  secrets: { fields: {}, oauth: { accessToken: 'tok_test' } },
});

/** A workflow started by `trigger` whose step posts `{{ <idOf> }}` to the recorder under `/<tag>`. */
const reporting = (
  tag: string,
  trigger: WorkflowDefinitionInput['trigger'],
  idOf: string,
): WorkflowDefinitionInput => ({
  trigger,
  steps: [
    {
      id: randomUUID(),
      connector: 'http',
      action: 'request',
      retries: 0,
      input: { method: 'POST', url: `${recorder.url}/${tag}`, body: { id: `{{ ${idOf} }}` } },
    },
  ],
});

/** The item ids the runs of `tag` reported, in the order they ran. */
const reported = (tag: string) => recorder.seen.filter((s) => s.path === `/${tag}`).map((s) => s.body.id);

const runCount = async (workflowId: string) =>
  (await svc.db.select({ id: executions.id }).from(executions).where(eq(executions.workflowId, workflowId)))
    .length;

async function setUp(name: string, connector: string, definition: WorkflowDefinitionInput) {
  const { accountId, apiKey } = await svc.account(name);
  const set = await setUpAppTrigger(svc, {
    accountId,
    apiKey,
    username: 'ada',
    connector,
    credential:
      connector === 'stripe'
        ? { name: 'Stripe', type: 'apiKey', secrets: { fields: { apiKey: 'rk_test_good' } } }
        : oauth(connector),
    definition,
    workflowName: name,
  });
  return { ...set, apiKey };
}

const baselineOf = (s: { userId: string; workflowId: string }) =>
  eventually('the baseline', async () => {
    const r = await stateOf(svc, s.userId, s.workflowId);
    return r?.triggerState?.baseline ? r : undefined;
  });

/**
 * For workflows polling every hour: makes the next poll due now and waits until it ended (the row's next
 * poll an hour away again). Only called between polls.
 */
async function pollNow(s: { userId: string; workflowId: string }) {
  const pk = and(eq(userWorkflows.userId, s.userId), eq(userWorkflows.workflowId, s.workflowId));
  await svc.db.update(userWorkflows).set({ nextRunAt: new Date() }).where(pk);
  return eventually('the poll to end', async () => {
    const r = await stateOf(svc, s.userId, s.workflowId);
    return r!.nextRunAt!.getTime() > Date.now() + HOUR / 2 ? r : undefined;
  });
}

describe('oldest-first lists', () => {
  it('Airtable new_record: the baseline reads all 250 existing records (3 pages), a poll with nothing new starts nothing, 3 added start 3 runs oldest first', async () => {
    airtable.add(...Array.from({ length: 250 }, (_, i) => `recOld${String(i).padStart(3, '0')}`));
    const s = await setUp(
      'airtable',
      'airtable',
      reporting(
        'airtable',
        {
          type: 'app',
          connector: 'airtable',
          trigger: 'new_record',
          input: { baseId: BASE, table: 'Leads' },
          every: '150ms',
        },
        'trigger.id',
      ),
    );
    const row = await baselineOf(s);
    const polled = airtable.polls();
    await eventually('a poll after the baseline', () => airtable.polls() >= polled + 2);
    expect(await runCount(s.workflowId)).toBe(0);
    // The baseline read the whole list, page by page, and its newest record is the high-water mark.
    expect(airtable.pages.slice(0, 3).map((p) => [p.query.get('offset'), p.ids.length])).toEqual([
      [null, 100],
      ['100', 100],
      ['200', 50],
    ]);
    expect(airtable.pages[0]!.query.has('filterByFormula')).toBe(false);
    expect(airtable.pages[0]!.auth).toBe('Bearer tok_test');
    expect(row.triggerState!.highWater).toBe(airtable.records.at(-1)!.createdTime);
    expect(row.triggerState!.seen).toHaveLength(250);
    // Later polls ask from the mark on, and read one short page.
    expect(airtable.pages.at(-1)!.query.get('filterByFormula')).toBe(
      `NOT(IS_BEFORE(CREATED_TIME(), DATETIME_PARSE('${row.triggerState!.highWater}')))`,
    );

    // Ids out of alphabetical order: the order asserted is the records' own, not a sort.
    const added = ['recZulu', 'recAlpha', 'recMike'];
    airtable.add(...added);
    await eventually('three runs', async () => (await runCount(s.workflowId)) >= 3);
    const after = airtable.polls();
    await eventually('a poll after the runs', () => airtable.polls() >= after + 2);
    expect(await runCount(s.workflowId)).toBe(3);
    await eventually('the three runs to run', () => reported('airtable').length >= 3);
    expect(reported('airtable')).toEqual(added);
  });

  it('Asana new_task: a baseline over 1,050 tasks reads 500 a poll and goes on at once; the seen-set keeps the last 1,000 ids and the high-water mark covers older ones', async () => {
    const gids = Array.from({ length: 1050 }, (_, i) => String(1_200_000_000_001_000 + i));
    asana.add(...gids);
    const s = await setUp(
      'asana',
      'asana',
      reporting(
        'asana',
        {
          type: 'app',
          connector: 'asana',
          trigger: 'new_task',
          input: { project: asana.project },
          // An hour: the three polls of the baseline can only have come one after another at once.
          every: '1h',
        },
        'trigger.gid',
      ),
    );
    const row = await baselineOf(s);
    expect(asana.polls()).toBe(3);
    const polls = asana.pages.reduce<{ since: string | null; ids: string[]; pages: number }[]>((out, p) => {
      if (!p.query.has('offset')) out.push({ since: p.query.get('modified_since'), ids: [], pages: 0 });
      out.at(-1)!.ids.push(...p.ids);
      out.at(-1)!.pages++;
      return out;
    }, []);
    // The cap per poll (500 items, whole pages), then on from the mark: the last task read comes back once.
    expect(polls.map((p) => [p.since, p.pages, p.ids.length])).toEqual([
      [null, 5, 500],
      [asana.tasks[499]!.created_at, 5, 500],
      [asana.tasks[998]!.created_at, 1, 52],
    ]);
    expect(row.triggerState!.seen).toHaveLength(SEEN_LIMIT);
    expect(row.triggerState!.seen).toEqual(gids.slice(-SEEN_LIMIT));
    expect(row.triggerState!.highWater).toBe(asana.tasks.at(-1)!.created_at);
    expect(row.nextRunAt!.getTime()).toBeGreaterThan(Date.now() + HOUR / 2);
    expect(await runCount(s.workflowId)).toBe(0);

    // An old task edited since: Asana lists it again, its id is no longer remembered, and the high-water mark
    // alone keeps it from starting a run.
    asana.touch(gids[0]!);
    expect(row.triggerState!.seen).not.toContain(gids[0]);
    await pollNow(s);
    expect(asana.pages.at(-1)!.ids).toContain(gids[0]);
    expect(await runCount(s.workflowId)).toBe(0);

    const added = ['1200000000009003', '1200000000009001', '1200000000009002'];
    asana.add(...added);
    await pollNow(s);
    expect(await runCount(s.workflowId)).toBe(3);
    await pollNow(s);
    expect(await runCount(s.workflowId)).toBe(3);
    await eventually('the three runs to run', () => reported('asana').length >= 3);
    expect(reported('asana')).toEqual(added);
  });
});

describe('newest-first lists', () => {
  const stripeTrigger = (every?: string): WorkflowDefinitionInput['trigger'] => ({
    type: 'app',
    connector: 'stripe',
    trigger: 'new_customer',
    input: {},
    ...(every ? { every } : {}),
  });

  it('a trigger without `every` polls every 5 minutes', async () => {
    stripe.add('cus_before');
    const before = Date.now();
    const s = await setUp('every', 'stripe', reporting('every', stripeTrigger(), 'trigger.id'));
    const row = await baselineOf(s);
    const after = Date.now();
    expect(row.nextRunAt!.getTime()).toBeGreaterThanOrEqual(before + 5 * 60_000);
    expect(row.nextRunAt!.getTime()).toBeLessThanOrEqual(after + 5 * 60_000);
  });

  it('a newest-first list starts its new items oldest first', async () => {
    const s = await setUp(
      'stripe-order',
      'stripe',
      reporting('stripe-order', stripeTrigger('1h'), 'trigger.id'),
    );
    await baselineOf(s);
    // Ids out of alphabetical order, listed by Stripe newest first: the runs go by creation time.
    const added = ['cus_zed', 'cus_amy', 'cus_max'];
    stripe.add(...added);
    await pollNow(s);
    expect(await runCount(s.workflowId)).toBe(3);
    await eventually('the three runs to run', () => reported('stripe-order').length >= 3);
    expect(reported('stripe-order')).toEqual(added);
  });

  it('one poll reads at most 500 items (whole pages, newest first); older new items are behind the mark', async () => {
    const s = await setUp('cap', 'stripe', {
      trigger: stripeTrigger('1h'),
      steps: [{ id: randomUUID(), connector: 'transform', action: 'map', input: { expression: '1' } }],
    });
    await baselineOf(s);
    const ids = Array.from({ length: 601 }, (_, i) => `cus_n${String(i).padStart(3, '0')}`);
    stripe.add(...ids);
    const from = stripe.requests.length;
    await pollNow(s);
    const sent = stripe.requests.slice(from);
    expect(sent.map((r) => r.query.get('starting_after'))).toEqual([
      null,
      ids[501],
      ids[401],
      ids[301],
      ids[201],
    ]);
    expect(await triggeredIds(svc, s.workflowId)).toEqual(ids.slice(-500));
    await pollNow(s);
    expect(await runCount(s.workflowId)).toBe(500);
    // The 500 queued runs are not this test's subject: deleted, they end at once instead of delaying close.
    await svc.call('DELETE', `/users/${s.userId}/logs?userId=${s.userId}`, { auth: s.apiKey });
  });
});
