import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { BatchedLimiter } from '../../src/ratelimit/batched-limiter.ts';
import { batched } from '../../src/ratelimit/limiters.ts';

/** A shared store (one in-memory limiter both "nodes" write to) that counts its round trips. */
function sharedStore(points: number) {
  const store = new RateLimiterMemory({ points, duration: 60 });
  const trips = { n: 0 };
  const penalty = store.penalty.bind(store);
  store.penalty = (key, n, opts) => {
    trips.n++;
    return penalty(key, n, opts);
  };
  return { store, trips };
}

async function outcome(limiter: BatchedLimiter, key: string) {
  try {
    return await limiter.consume(key);
  } catch (err) {
    if (err instanceof RateLimiterRes) return 'refused' as const;
    throw err;
  }
}

describe('BatchedLimiter', () => {
  it('counts in memory and sends batches: 50 requests make a handful of round trips, totals exact', async () => {
    const { store, trips } = sharedStore(1000);
    const node = new BatchedLimiter(store, { flushMs: 60_000, batch: 20 });
    const results = [];
    for (let i = 0; i < 50; i++) results.push(await node.consume('k'));
    expect(results.map((r) => r.remainingPoints).slice(0, 3)).toEqual([999, 998, 997]);
    await node.close();
    // Two full batches sent when they filled, the last 10 at close.
    expect(trips.n).toBe(3);
    expect((await store.get('k'))?.consumedPoints).toBe(50);
  });

  it('one node alone never admits past the quota, and refuses from memory', async () => {
    const { store, trips } = sharedStore(30);
    const node = new BatchedLimiter(store, { flushMs: 60_000, batch: 5 });
    const outcomes = await Promise.all(Array.from({ length: 40 }, () => outcome(node, 'k')));
    expect(outcomes.filter((o) => o !== 'refused')).toHaveLength(30);
    const tripsAtQuota = trips.n;
    for (let i = 0; i < 20; i++) expect(await outcome(node, 'k')).toBe('refused');
    expect(trips.n).toBe(tripsAtQuota);
    await node.close();
    expect((await store.get('k'))?.consumedPoints).toBe(30);
  });

  it('three nodes on one store admit at most quota + (nodes - 1) x 2 x batch', async () => {
    const points = 200;
    const batch = 4;
    const { store } = sharedStore(points);
    const nodes = [0, 1, 2].map(() => new BatchedLimiter(store, { flushMs: 60_000, batch }));
    let admitted = 0;
    for (let round = 0; round < 120; round++) {
      const outs = await Promise.all(nodes.map((n) => outcome(n, 'k')));
      admitted += outs.filter((o) => o !== 'refused').length;
    }
    expect(admitted).toBeGreaterThanOrEqual(points);
    expect(admitted).toBeLessThanOrEqual(points + 2 * 2 * batch);
    for (const n of nodes) await n.close();
    // Every admitted request reached the shared store.
    expect((await store.get('k'))?.consumedPoints).toBe(admitted);
  });

  it('the timer sends a partial batch, so other nodes see it within the sync interval', async () => {
    const { store } = sharedStore(100);
    const node = new BatchedLimiter(store, { flushMs: 20, batch: 50 });
    await node.consume('k');
    await node.consume('k');
    for (let i = 0; i < 200 && (await store.get('k'))?.consumedPoints !== 2; i++)
      await new Promise((r) => setTimeout(r, 10));
    expect((await store.get('k'))?.consumedPoints).toBe(2);
    await node.close();
  });

  it('small quotas and a sync interval of 0 stay exact: the shared limiter itself, no batch', () => {
    const small = new RateLimiterMemory({ points: 99, duration: 60 });
    expect(batched(small, 100)).toBe(small);
    const big = new RateLimiterMemory({ points: 6000, duration: 60 });
    expect(batched(big, 0)).toBe(big);
    const front = batched(big, 100);
    expect(front).toBeInstanceOf(BatchedLimiter);
    return (front as BatchedLimiter).close();
  });
});
