import { randomUUID } from 'node:crypto';
import type { WorkflowDefinitionInput } from '@inlay/contract';
import { install, publish, waitForRuns } from '@inlay/test-kit/engine';
import { createUser } from '@inlay/test-kit/fixtures';
import { type Service, startService } from '@inlay/test-kit/service';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executionSteps } from '../../src/store/schema.ts';

// Every run has a budget: INLAY_MAX_STEPS_PER_RUN step occurrences across nested loops, and
// INLAY_MAX_RUN_OUTPUT_MB of stored step data. This file's service has small ones (its own options).

let svc: Service;
let apiKey: string;
let userId: string;

beforeAll(async () => {
  svc = await startService({ env: { INLAY_MAX_STEPS_PER_RUN: '25', INLAY_MAX_RUN_OUTPUT_MB: '1' } });
  ({ apiKey } = await svc.account('budget'));
  userId = await createUser(svc, apiKey, 'ada');
});
afterAll(() => svc?.close());

const transform = (expression: string, extra: Record<string, unknown> = {}) => ({
  id: randomUUID(),
  connector: 'transform',
  action: 'map',
  input: { expression },
  ...extra,
});

async function runOnce(steps: unknown[]) {
  const workflowId = await publish(svc, apiKey, {
    trigger: { type: 'manual' },
    steps,
  } as WorkflowDefinitionInput);
  await install(svc, apiKey, userId, [workflowId]);
  const r = await svc.call('POST', '/run/workflow', { auth: apiKey, body: { workflowId, userId, data: {} } });
  expect(r.status, r.text).toBe(200);
  const [row] = await waitForRuns(svc, r.body.executionIds);
  const recorded = await svc.db.select().from(executionSteps).where(eq(executionSteps.executionId, row!.id));
  return { row: row!, recorded };
}

describe('run budget', () => {
  it('a nested forEach stops at INLAY_MAX_STEPS_PER_RUN, whatever onError says', async () => {
    // 10 × 10 iterations of a step that may fail and continue: 111 occurrences without a budget.
    const inner = {
      id: randomUUID(),
      type: 'forEach',
      items: '{{ [1..10] }}',
      concurrency: 3,
      steps: [transform('item * 2', { onError: 'continue' })],
    };
    const outer = {
      id: randomUUID(),
      type: 'forEach',
      items: '{{ [1..10] }}',
      concurrency: 2,
      steps: [inner],
    };
    const { row, recorded } = await runOnce([outer]);
    expect(row.status).toBe('failed');
    expect(row.error).toMatchObject({ code: 'run_step_budget' });
    expect((row.error as { message: string }).message).toContain(
      'budget of 25 steps (INLAY_MAX_STEPS_PER_RUN)',
    );
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThanOrEqual(25);
  });

  it('a run that stores more than INLAY_MAX_RUN_OUTPUT_MB stops, keeping the step that crossed it', async () => {
    // Each iteration stores about 300 kB (under the per-step cap): the fourth crosses 1 MB.
    const big = transform("$pad('', 300000, 'x')");
    const loop = { id: randomUUID(), type: 'forEach', items: '{{ [1..8] }}', concurrency: 1, steps: [big] };
    const { row, recorded } = await runOnce([loop]);
    expect(row.status).toBe('failed');
    expect(row.error).toMatchObject({ code: 'run_output_budget' });
    expect((row.error as { message: string }).message).toContain('budget of 1 MB of step data');
    expect(recorded.filter((s) => s.stepId === big.id).length).toBe(4);
  });

  it('a run within both budgets is untouched', async () => {
    const loop = { id: randomUUID(), type: 'forEach', items: '{{ [1..5] }}', steps: [transform('item + 1')] };
    const { row, recorded } = await runOnce([loop]);
    expect(row.status).toBe('succeeded');
    expect(recorded.length).toBe(6);
  });
});
