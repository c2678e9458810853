// biome-ignore-all lint/suspicious/noThenProperty: `then` is the if step's branch, as the definition spells it
import { randomUUID } from 'node:crypto';
import { REDACTED } from '@inlay/connectors';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import {
  BOT_TOKEN,
  CHANNEL,
  discordCredential,
  install,
  logsOf,
  publish,
  startDiscord,
  waitForRuns,
} from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps, executions } from '../../src/store/schema.ts';

// The engine's guarantees hold inside `if` and `forEach`: per-step retries, rerun, the compliance delete and
// secret scrubbing, per iteration. The Discord fake fails `flaky` twice with 503, throttles `throttle` once
// with 429, and answers `reject` with a 400 quoting the Authorization header back.

let svc: Service;
let discord: Awaited<ReturnType<typeof startDiscord>>;
let apiKey: string;

beforeAll(async () => {
  discord = await startDiscord();
  svc = await startService({
    env: {
      INLAY_CONNECTOR_DISCORD_BASE_URL: discord.url,
      INLAY_RETRY_BASE_MS: '5',
      INLAY_RETRY_MAX_MS: '40',
      INLAY_STEP_RETRIES: '2',
    },
  });
  ({ apiKey } = await svc.account('guarantees'));
});
afterAll(async () => {
  await svc?.close();
  await discord?.close();
});

const post = (content: string, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  connector: 'discord',
  action: 'send_message',
  input: { channelId: CHANNEL, content },
  ...extra,
});

/**
 * A user with a Discord credential and an installed workflow: an if whose branch posts once and then posts
 * each of `trigger.lines` from a forEach (2 at a time, failures continue).
 */
async function setUp(name: string) {
  const userId = await createUser(svc, apiKey, name);
  const credentialId = await discordCredential(svc, apiKey, userId);
  const direct = post('{{ trigger.tag }} flaky direct');
  const each = post('{{ trigger.tag }} {{ item }}', { onError: 'continue' });
  const loop = {
    id: randomUUID(),
    type: 'forEach',
    items: '{{ trigger.lines }}',
    concurrency: 2,
    steps: [each],
  };
  const gate = {
    id: randomUUID(),
    type: 'if',
    condition: '{{ $count(trigger.lines) > 0 }}',
    then: [direct, loop],
    else: [],
  };
  const workflowId = await publish(
    svc,
    apiKey,
    { trigger: { type: 'manual' }, steps: [gate] } as WorkflowDefinitionInput,
    name,
  );
  await install(svc, apiKey, userId, [workflowId], { credentialIds: { discord: credentialId } });
  return { userId, workflowId, ids: { gate: gate.id, direct: direct.id, loop: loop.id, each: each.id } };
}

async function run(workflowId: string, userId: string, data: unknown) {
  const r = await svc.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId, userId, data } });
  expect(r.status, r.text).toBe(200);
  await waitForRuns(svc, r.body.executionIds, 60_000);
  return r.body.executionIds[0] as string;
}

const entryOf = async (workflowId: string, userId: string, executionId: string) =>
  (await logsOf(svc, apiKey, workflowId, userId)).find((e) => e.executionId === executionId);

/** The log's tree as [stepId, iteration] pairs, in the log's order. */
const shape = (e: { results: { stepId: string; iteration?: number }[] }) =>
  e.results.map((r) => [r.stepId, r.iteration ?? null]);

describe('engine guarantees inside if and forEach', () => {
  it('retries each step occurrence on its own, scrubs the credential from every iteration, reruns the same tree, and the compliance delete takes every nested row', async () => {
    const s = await setUp('ada');
    const tag = randomUUID().slice(0, 8);
    const lines = ['ok', 'flaky', 'throttle', 'reject'];
    const first = await run(s.workflowId, s.userId, { tag, lines });
    const e = await entryOf(s.workflowId, s.userId, first);
    expect(e.status).toBe('succeeded');

    // Retries per step occurrence: the branch's own step, then each iteration separately.
    const direct = e.results.find((r: any) => r.stepId === s.ids.direct);
    expect(direct).toMatchObject({ parentStepId: s.ids.gate, status: 'succeeded', attempts: 3 });
    expect(discord.tries.get(`${tag} flaky direct`)).toBe(3);
    const iterations = e.results.filter((r: any) => r.stepId === s.ids.each);
    expect(iterations.map((r: any) => [r.iteration, r.status, r.attempts])).toEqual(
      expect.arrayContaining([
        [0, 'succeeded', 1],
        [1, 'succeeded', 3],
        [2, 'succeeded', 2],
        [3, 'failed', 1],
      ]),
    );
    expect(iterations).toHaveLength(4);
    for (const line of lines)
      expect(discord.tries.get(`${tag} ${line}`)).toBe({ ok: 1, flaky: 3, throttle: 2, reject: 1 }[line]);

    // The 400 quoted the bot token back: scrubbed in that iteration's result, and nowhere in the rows.
    const rejected = iterations.find((r: any) => r.iteration === 3);
    expect(rejected.error).toMatchObject({ statusCode: 400 });
    expect(rejected.data[0][0].json).toEqual({
      message: 'Invalid Form Body',
      code: 50035,
      echo: `Bot ${REDACTED}`,
    });
    const rows = [
      await svc.db.select().from(executions).where(eq(executions.id, first)),
      await svc.db.select().from(executionSteps).where(eq(executionSteps.executionId, first)),
    ];
    for (const text of [JSON.stringify(e), JSON.stringify(rows)]) {
      expect(text).not.toContain(BOT_TOKEN);
      expect(text).toContain(`Bot ${REDACTED}`);
    }

    // A rerun runs the same tree again with the same trigger: the same occurrences, logged the same way.
    const again = await svc.call('POST', `/workflows/${s.workflowId}/rerun/${first}?userId=${s.userId}`, {
      auth: apiKey,
    });
    expect(again.status, again.text).toBe(200);
    await waitForRuns(svc, [again.body.executionId], 60_000);
    const re = await entryOf(s.workflowId, s.userId, again.body.executionId);
    expect(re).toMatchObject({ rerunOf: first, status: 'succeeded' });
    const sorted = (x: unknown[][]) =>
      [...x].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    // Iterations run two at a time, so their order in the log may differ; the set of occurrences may not.
    expect(sorted(shape(re))).toEqual(sorted(shape(e)));
    expect(JSON.stringify(re)).not.toContain(BOT_TOKEN);

    // The compliance delete takes the runs with every nested and per-iteration row.
    const nested = await svc.db.select().from(executionSteps).where(eq(executionSteps.userId, s.userId));
    expect(nested.filter((r) => r.iteration !== null).length).toBe(8);
    const del = await svc.call('DELETE', `/users/${s.userId}/logs?userId=${s.userId}`, { auth: apiKey });
    expect(del.body).toEqual({ message: 'Success' });
    expect(await svc.db.select().from(executions).where(eq(executions.userId, s.userId))).toEqual([]);
    expect(await svc.db.select().from(executionSteps).where(eq(executionSteps.userId, s.userId))).toEqual([]);
    expect(await logsOf(svc, apiKey, s.workflowId, s.userId)).toEqual([]);
  });

  it('a branch not taken runs nothing, so it retries nothing', async () => {
    const s = await setUp('bea');
    const before = discord.posted.length;
    const id = await run(s.workflowId, s.userId, { tag: 'none', lines: [] });
    const e = await entryOf(s.workflowId, s.userId, id);
    expect(e.results.map((r: any) => [r.stepId, r.branch ?? null])).toEqual([[s.ids.gate, 'else']]);
    expect(discord.posted.length).toBe(before);
  });
});
