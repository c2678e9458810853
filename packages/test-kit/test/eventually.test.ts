import { describe, expect, it, vi } from 'vitest';
import { EventuallyTimeout, eventually } from '../src/eventually.ts';

describe('eventually', () => {
  it('resolves with the first settled value, treating a throw as not yet', async () => {
    let calls = 0;
    const value = await eventually(
      'the third call',
      () => {
        calls++;
        if (calls === 1) throw new Error('not ready');
        return calls === 3 ? { calls } : false;
      },
      { interval: 1 },
    );
    expect(value).toEqual({ calls: 3 });
    expect(calls).toBe(3);
  });

  it('keeps 0 and the empty string: only undefined, null and false mean not yet', async () => {
    expect(await eventually('zero', () => 0)).toBe(0);
    expect(await eventually('empty', async () => '')).toBe('');
  });

  it('names the condition and quotes the last value when time runs out', async () => {
    vi.useFakeTimers();
    try {
      const waiting = eventually('the run to finish', () => undefined, { timeout: 1_000 });
      const failed = expect(waiting).rejects.toThrow(
        'timed out after 1000 ms waiting for the run to finish: the last check returned undefined',
      );
      await vi.advanceTimersByTimeAsync(1_100);
      await failed;
    } finally {
      vi.useRealTimers();
    }
  });

  it('quotes the last error, and keeps it as the cause', async () => {
    const err = await eventually(
      'a passing expect',
      () => {
        expect(1).toBe(2);
      },
      { timeout: 30, interval: 5 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EventuallyTimeout);
    expect((err as Error).message).toMatch(
      /waiting for a passing expect: the last check threw expected 1 to be 2/,
    );
    expect((err as Error).cause).toBeInstanceOf(Error);
  });
});
