import { Writable } from 'node:stream';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';

/** A logger writing into an array of parsed lines. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const out = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).split('\n')) if (l) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, logger: createLogger('info', out) };
}

describe('the logger', () => {
  it("logs a failed query's statement and cause, never its parameters", () => {
    const { lines, logger } = capture();
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const params = ['step-output-of-a-user', 'v1.sealed.ciphertext', 'x'.repeat(50_000)];
    const err = new DrizzleQueryError(
      `insert into execution_steps (execution_id, data)\n        values ($1, $2)${' '.repeat(400)}`,
      params,
      refused,
    );
    logger.error({ err, executionId: 'e1' }, 'execution crashed');

    const line = JSON.stringify(lines[0]);
    for (const p of params) expect(line).not.toContain(p.slice(0, 40));
    expect(line.length).toBeLessThan(4096);
    const logged = lines[0]!.err as Record<string, string>;
    expect(logged.type).toBe('DrizzleQueryError');
    expect(logged.code).toBe('ECONNREFUSED');
    expect(logged.message).toBe(
      'Failed query: insert into execution_steps (execution_id, data) values ($1, $2): connect ECONNREFUSED 127.0.0.1:5432',
    );
    expect(logged.stack).toMatch(/^DrizzleQueryError: Failed query: insert into execution_steps/);
    expect(logged.stack).toContain('logger.test.ts');
    expect(logged.stack).toContain('caused by: Error: connect ECONNREFUSED');
    expect(logged).not.toHaveProperty('params');
    expect(logged).not.toHaveProperty('query');
    expect(lines[0]).toMatchObject({ executionId: 'e1', msg: 'execution crashed' });
  });

  it("withholds the parameters of a failed query that is another error's cause, and leaves the error as it was", () => {
    const { lines, logger } = capture();
    const params = ['sealed-value-of-a-user', 'y'.repeat(20_000)];
    const query = new DrizzleQueryError(
      'update executions set status = $1 where id = $2',
      params,
      new Error('57P01'),
    );
    class RunCrashed extends Error {}
    const err = Object.assign(new RunCrashed('run e1 crashed', { cause: query }), { executionId: 'e1' });
    logger.error({ err }, 'execution crashed');

    const line = JSON.stringify(lines[0]);
    for (const p of params) expect(line).not.toContain(p.slice(0, 40));
    const logged = lines[0]!.err as Record<string, unknown>;
    expect(logged).toMatchObject({ type: 'RunCrashed', executionId: 'e1' });
    expect(logged.message).toBe(
      'run e1 crashed: Failed query: update executions set status = $1 where id = $2: 57P01',
    );
    expect(logged.stack).toMatch(
      /^Error: run e1 crashed\n\s+at [\s\S]*caused by: DrizzleQueryError: Failed query: update/,
    );
    // The logged error is a copy: the caller's still holds the failed query, parameters and all.
    expect(err.cause).toBe(query);
    expect(query.params).toEqual(params);
  });

  it('shortens a long statement to 160 characters', () => {
    const { lines, logger } = capture();
    const err = new DrizzleQueryError(
      `select ${'a, '.repeat(200)}b from t`,
      [],
      undefined as unknown as Error,
    );
    logger.warn({ err }, 'failed');
    const message = (lines[0]!.err as { message: string }).message;
    expect(message).toBe(`Failed query: ${`select ${'a, '.repeat(200)}`.slice(0, 160)}…`);
    // No cause, so no code.
    expect(lines[0]!.err).not.toHaveProperty('code');
  });

  it('logs any other error as pino does, own fields included', () => {
    const { lines, logger } = capture();
    logger.error({ err: Object.assign(new TypeError('bad'), { code: 'E_BAD' }) }, 'failed');
    expect(lines[0]!.err).toMatchObject({ type: 'TypeError', message: 'bad', code: 'E_BAD' });
    expect((lines[0]!.err as { stack: string }).stack).toMatch(/^TypeError: bad\n\s+at /);
  });
});
