import { ConnectorError, type ConnectorRuntime, REDACTED } from '@inlay/connectors';
import type { Step } from '@inlay/contract';
import { describe, expect, it } from 'vitest';
import { retryDelay } from '../../src/engine/backoff.ts';
import { MemoryQueue } from '../../src/engine/memory-queue.ts';
import { runStep } from '../../src/engine/step-runner.ts';
import { storable } from '../../src/engine/storable.ts';
import {
  checkTemplates,
  parseTemplate,
  resolveTemplates,
  TemplateError,
} from '../../src/engine/templates.ts';
import { createLogger } from '../../src/logger.ts';

describe('templates', () => {
  const scope = {
    trigger: { name: 'Acme', amount: 21, tags: ['a', 'b'] },
    config: { channel: 'C1' },
    steps: { first: { id: 7 } },
    user: { username: 'alice' },
  };

  it('keeps the type of a lone expression and interpolates text in mixed strings', async () => {
    expect(await resolveTemplates('{{ trigger.amount * 2 }}', scope)).toBe(42);
    expect(await resolveTemplates(' {{ trigger.tags }} ', scope)).toEqual(['a', 'b']);
    expect(await resolveTemplates('Deal {{ trigger.name }} #{{ steps.first.id }}', scope)).toBe(
      'Deal Acme #7',
    );
    expect(await resolveTemplates('{{ trigger.missing }}x', scope)).toBe('x');
    expect(
      await resolveTemplates({ a: ['{{ config.channel }}', 1], b: { c: '{{ user.username }}' } }, scope),
    ).toEqual({ a: ['C1', 1], b: { c: 'alice' } });
    // An undefined result drops the key rather than sending `undefined`.
    expect(await resolveTemplates({ keep: 1, drop: '{{ trigger.nothing }}' }, scope)).toEqual({ keep: 1 });
  });

  it('finds the closing braces outside strings and object constructors', () => {
    expect(parseTemplate('{{ {"a": {"b": 1}} }}')).toEqual([{ expr: '{"a": {"b": 1}}' }]);
    expect(parseTemplate('x {{ "}}" }} y')).toEqual([{ text: 'x ' }, { expr: '"}}"' }, { text: ' y' }]);
    expect(parseTemplate('open {{ never closed')).toEqual([{ text: 'open {{ never closed' }]);
  });

  it('names the input field of a bad or failing expression', async () => {
    expect(() => checkTemplates({ a: { b: ['ok', '{{ 1 + }}'] } })).toThrow(TemplateError);
    try {
      checkTemplates({ a: { b: ['ok', '{{ 1 + }}'] } });
    } catch (err) {
      expect((err as TemplateError).path).toBe('input.a.b[1]');
      expect((err as TemplateError).code).toBe('invalid_expression');
    }
    await expect(resolveTemplates({ n: '{{ $number("x") }}' }, scope)).rejects.toMatchObject({
      path: 'input.n',
      code: 'expression_error',
    });
    expect(() => checkTemplates('{{ }}')).toThrow(/holds no expression/);
  });
});

describe('retry backoff', () => {
  const policy = { baseMs: 100, maxMs: 1000 };

  it('doubles per attempt with equal jitter, capped', () => {
    expect(retryDelay(1, policy, undefined, () => 0)).toBe(50);
    expect(retryDelay(1, policy, undefined, () => 1)).toBe(100);
    expect(retryDelay(3, policy, undefined, () => 0)).toBe(200);
    expect(retryDelay(3, policy, undefined, () => 0.999)).toBeLessThanOrEqual(400);
    expect(retryDelay(10, policy, undefined, () => 1)).toBe(1000);
  });

  it('honours Retry-After, within the cap', () => {
    expect(retryDelay(1, policy, 700)).toBe(700);
    expect(retryDelay(1, policy, 60_000)).toBe(1000);
    expect(retryDelay(1, policy, -5)).toBe(0);
  });
});

describe('storable', () => {
  it('stores small values whole, scrubbed of secrets and NUL characters', () => {
    const json = { token: `x-${REDACTED}-y`, s: 'a\uFFFDb' };
    expect(storable({ token: 'x-SECRET-y', s: 'a\u0000b' }, ['SECRET'], 1024)).toEqual({
      truncated: false,
      json,
      bytes: Buffer.byteLength(JSON.stringify(json)),
    });
  });

  it('cuts a large value to the cap with a marker and a preview, never silently', () => {
    const big = { text: 'é'.repeat(5000) };
    const s = storable(big, [], 2048);
    expect(s.truncated).toBe(true);
    expect(s.bytes).toBe(2048);
    const json = s.json as { truncated: boolean; marker: string; originalBytes: number; preview: string };
    expect(json.truncated).toBe(true);
    expect(json.originalBytes).toBe(Buffer.byteLength(JSON.stringify(big)));
    expect(json.marker).toContain('2048-byte limit');
    expect(JSON.stringify(big).startsWith(json.preview)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(s.json))).toBeLessThanOrEqual(2048);
  });
});

describe('MemoryQueue', () => {
  it('runs each id once and never more than `concurrency` at a time', async () => {
    const q = new MemoryQueue(createLogger('silent'));
    let active = 0;
    let peak = 0;
    const ran: string[] = [];
    q.consume(async (id) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setTimeout(r, 5));
      ran.push(id);
      active--;
    }, 3);
    const ids = Array.from({ length: 20 }, (_, i) => `r${i}`);
    await q.dispatch(ids);
    await q.dispatch(ids.slice(15)); // still pending: not queued twice
    while (ran.length < 20) await new Promise((r) => setTimeout(r, 5));
    expect(await q.drain(1000)).toBe(true);
    expect(ran.sort()).toEqual([...ids].sort());
    expect(peak).toBe(3);
  });
});

describe('runStep (against a fake runtime)', () => {
  const step: Step = { id: crypto.randomUUID(), connector: 'x', action: 'y', input: {} };
  const settings = { timeoutMs: 1000, retries: 3, backoff: { baseMs: 1, maxMs: 5 } };
  const fake = (answers: (() => unknown)[]) => {
    let n = 0;
    return {
      calls: () => n,
      runtime: {
        execute: async () => {
          const a = answers[Math.min(n++, answers.length - 1)]!();
          return a as { output: unknown; statusCode?: number };
        },
      } as unknown as ConnectorRuntime,
    };
  };
  const transient = () => {
    throw new ConnectorError('503: busy', { code: 'http_error', transient: true, statusCode: 503 });
  };
  const permanent = () => {
    throw new ConnectorError('400: bad', { code: 'http_error', transient: false, statusCode: 400 });
  };

  it('retries transient failures and reports the attempts', async () => {
    const f = fake([transient, transient, () => ({ output: { ok: 1 }, statusCode: 200 })]);
    const r = await runStep(
      f.runtime,
      step,
      {},
      { scope: {}, settings, signal: new AbortController().signal },
    );
    expect(r).toEqual({ ok: true, output: { ok: 1 }, statusCode: 200, attempts: 3 });
  });

  it('gives up after the configured retries, and at once on a permanent failure', async () => {
    const always = fake([transient]);
    const r = await runStep(
      always.runtime,
      step,
      {},
      { scope: {}, settings, signal: new AbortController().signal },
    );
    expect(r).toMatchObject({ ok: false, attempts: 4 });
    expect(always.calls()).toBe(4);
    const bad = fake([permanent]);
    const p = await runStep(
      bad.runtime,
      step,
      {},
      { scope: {}, settings, signal: new AbortController().signal },
    );
    expect(p).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { code: 'http_error', opts: { statusCode: 400 } },
    });
  });

  it('stops at once when the run is cancelled', async () => {
    const c = new AbortController();
    const reason = new Error('cancelled');
    const slow = {
      execute: () => new Promise(() => {}),
    } as unknown as ConnectorRuntime;
    const p = runStep(slow, step, {}, { scope: {}, settings, signal: c.signal });
    c.abort(reason);
    await expect(p).rejects.toBe(reason);
  });
});
