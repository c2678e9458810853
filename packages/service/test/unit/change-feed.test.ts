import { describe, expect, it } from 'vitest';
import { ChangeFeed, parseChange } from '../../src/store/change-feed.ts';
import { ReadCache } from '../../src/store/read-cache.ts';

const A = '00000000-0000-4000-8000-00000000000a';
const B = '00000000-0000-4000-8000-00000000000b';
const U1 = '00000000-0000-4000-8000-000000000001';
const U2 = '00000000-0000-4000-8000-000000000002';

function liveFeed(maxTracked?: number) {
  const feed = new ChangeFeed(maxTracked);
  feed.setLive(true);
  return feed;
}

describe('parseChange', () => {
  it('reads the trigger payloads and ignores anything else', () => {
    expect(parseChange('*')).toEqual({ kind: 'all' });
    expect(parseChange(`a:${A}`)).toEqual({ kind: 'account', accountId: A });
    expect(parseChange(`k:${A}`)).toEqual({ kind: 'keys', accountId: A });
    expect(parseChange(`u:${A}:${U1}`)).toEqual({ kind: 'user', accountId: A, userId: U1 });
    expect(parseChange(`u:${A}`)).toBeUndefined();
    expect(parseChange('s:marker')).toBeUndefined();
    expect(parseChange('')).toBeUndefined();
  });
});

describe('ChangeFeed', () => {
  it('stamps nothing and trusts nothing while it is not live', () => {
    const feed = new ChangeFeed();
    expect(feed.stamp()).toBeUndefined();
    expect(feed.fresh(0, A, U1)).toBe(false);
    feed.setLive(true);
    const s = feed.stamp()!;
    expect(typeof s).toBe('number');
    expect(feed.fresh(s, A, U1)).toBe(true);
    feed.setLive(false);
    expect(feed.fresh(s, A, U1)).toBe(false);
    // Coming back does not revive reads from before: changes may have been missed in between.
    feed.setLive(true);
    expect(feed.fresh(s, A, U1)).toBe(false);
    expect(feed.fresh(feed.stamp()!, A, U1)).toBe(true);
  });

  it('makes stale exactly the reads a change touches, and only those stamped before it', () => {
    const feed = liveFeed();
    const before = feed.stamp()!;
    feed.publish({ kind: 'user', accountId: A, userId: U1 });
    expect(feed.fresh(before, A, U1)).toBe(false);
    expect(feed.fresh(before, A, U2)).toBe(true);
    expect(feed.fresh(before, B)).toBe(true);
    const after = feed.stamp()!;
    expect(feed.fresh(after, A, U1)).toBe(true);

    feed.publish({ kind: 'account', accountId: A });
    expect(feed.fresh(after, A, U2)).toBe(false);
    expect(feed.fresh(after, A)).toBe(false);
    expect(feed.fresh(after, B, U1)).toBe(true);

    const s = feed.stamp()!;
    feed.publish({ kind: 'keys', accountId: B });
    expect(feed.fresh(s, B, U1)).toBe(true);
    feed.publish({ kind: 'all' });
    expect(feed.fresh(s, B, U1)).toBe(false);
  });

  it('forgets the oldest ids past its bound by raising the floor, never by trusting a stale read', () => {
    const feed = liveFeed(2);
    const s0 = feed.stamp()!;
    feed.publish({ kind: 'user', accountId: A, userId: U1 });
    const s1 = feed.stamp()!;
    feed.publish({ kind: 'user', accountId: A, userId: U2 });
    feed.publish({ kind: 'user', accountId: A, userId: '00000000-0000-4000-8000-000000000003' });
    // U1's record is gone; a read of U1 from before its change must still be stale.
    expect(feed.fresh(s0, A, U1)).toBe(false);
    // The floor is U1's change, so a read stamped after it stays good for an untouched user.
    expect(feed.fresh(s1, B, '00000000-0000-4000-8000-000000000009')).toBe(true);
  });

  it('tells subscribers every change until they unsubscribe', () => {
    const feed = liveFeed();
    const seen: string[] = [];
    const off = feed.subscribe((c) => seen.push(c.kind));
    feed.publish({ kind: 'keys', accountId: A });
    feed.publish({ kind: 'user', accountId: A, userId: U1 });
    off();
    feed.publish({ kind: 'all' });
    expect(seen).toEqual(['keys', 'user']);
  });
});

describe('ReadCache', () => {
  const scope = (v: string | undefined) =>
    v === undefined ? undefined : { accountId: A, userId: U1, bytes: v.length };

  it('answers from memory until a change to the scope, then loads again', async () => {
    const feed = liveFeed();
    const cache = new ReadCache(feed, { maxBytes: 1 << 20 });
    let loads = 0;
    const load = async () => `value ${++loads}`;
    expect(await cache.through('k', load, scope)).toBe('value 1');
    expect(await cache.through('k', load, scope)).toBe('value 1');
    expect([cache.hits, cache.misses]).toEqual([1, 1]);
    feed.publish({ kind: 'user', accountId: A, userId: U2 });
    expect(await cache.through('k', load, scope)).toBe('value 1');
    feed.publish({ kind: 'user', accountId: A, userId: U1 });
    expect(await cache.through('k', load, scope)).toBe('value 2');
    expect(loads).toBe(2);
  });

  it('does not keep a result whose query overlapped a change to its scope', async () => {
    const feed = liveFeed();
    const cache = new ReadCache(feed, { maxBytes: 1 << 20 });
    let loads = 0;
    const racing = async () => {
      loads++;
      // The write commits while this read is in flight: what it read may predate it.
      feed.publish({ kind: 'account', accountId: A });
      return 'maybe old';
    };
    expect(await cache.through('k', racing, scope)).toBe('maybe old');
    expect(await cache.through('k', async () => 'new', scope)).toBe('new');
    expect(loads).toBe(1);
    expect(cache.hits).toBe(0);
  });

  it('keeps nothing the scope function refuses, nothing while the feed is down, nothing with no budget', async () => {
    const feed = liveFeed();
    const cache = new ReadCache(feed, { maxBytes: 1 << 20 });
    let loads = 0;
    const missing = async () => {
      loads++;
      return undefined;
    };
    await cache.through('gone', missing, scope);
    await cache.through('gone', missing, scope);
    expect(loads).toBe(2);

    feed.setLive(false);
    const down = async () => `v${++loads}`;
    expect(await cache.through('k', down, scope)).toBe('v3');
    expect(await cache.through('k', down, scope)).toBe('v4');

    const off = new ReadCache(liveFeed(), { maxBytes: 0 });
    expect(await off.through('k', down, scope)).toBe('v5');
    expect(await off.through('k', down, scope)).toBe('v6');
    expect(off.hits).toBe(0);
  });

  it('stays within its memory budget, evicting the least recently used', async () => {
    const feed = liveFeed();
    const cache = new ReadCache(feed, { maxBytes: 10_000 });
    const big = (n: number) => async () => `${n}`.padEnd(3_000, '.');
    for (let n = 0; n < 5; n++) await cache.through(`k${n}`, big(n), scope);
    let reloaded = 0;
    await cache.through('k0', async () => `${++reloaded}`, scope);
    await cache.through('k4', async () => `${++reloaded}`, scope);
    expect(reloaded).toBe(1);
  });
});
