/** What a write to a watched table changed, as the `inlay_changes` trigger announces it. */
export type Change =
  | { kind: 'all' }
  | { kind: 'account'; accountId: string }
  | { kind: 'user'; accountId: string; userId: string }
  | { kind: 'keys'; accountId: string }
  /**
   * This node wrote something a topic's reads depend on without knowing whose (local write tracking sees only
   * statements): every read of that topic taken before is stale, other reads stay.
   */
  | { kind: 'topic'; topic: Topic };

/**
 * A kind of cached read that also depends on tables the account and user changes do not cover: `attention`
 * reads credential statuses, finished runs and app-trigger failures.
 */
export type Topic = 'attention';

/** The notification channel the `inlay_notify_change()` trigger writes to. */
export const CHANGES_CHANNEL = 'inlay_changes';

export function parseChange(payload: string): Change | undefined {
  if (payload === '*') return { kind: 'all' };
  const [tag, accountId, userId] = payload.split(':');
  if (!accountId) return undefined;
  if (tag === 'a') return { kind: 'account', accountId };
  if (tag === 'k') return { kind: 'keys', accountId };
  if (tag === 'u' && userId) return { kind: 'user', accountId, userId };
  return undefined;
}

/**
 * Decides whether a read taken at some moment is still current. Every change bumps a counter and records it
 * against the account or user it touched; a read stamped before that is stale. The per-id records are bounded:
 * forgetting one raises the floor every read must be stamped at or after, which only ever errs towards stale.
 * While the feed is not live (its listener is down) nothing is fresh and nothing can be stamped.
 */
export class ChangeFeed {
  #live = false;
  #counter = 0;
  #floor = 0;
  readonly #topics = new Map<Topic, number>();
  readonly #accounts = new Map<string, number>();
  readonly #users = new Map<string, number>();
  readonly #subscribers = new Set<(change: Change) => void>();
  readonly #watchers = new Set<(live: boolean, reason?: string) => void>();
  #sync: () => Promise<void> = async () => {};

  constructor(private readonly maxTracked = 100_000) {}

  get live(): boolean {
    return this.#live;
  }

  /** Going down or coming back drops every earlier read: changes in between may have been missed. */
  setLive(live: boolean, reason?: string): void {
    const was = this.#live;
    this.#live = live;
    this.publish({ kind: 'all' });
    // Every failed attempt is reported, not only the first: a feed that never came up must say so too.
    if (was !== live || !live) for (const fn of this.#watchers) fn(live, reason);
  }

  /** Tells `fn` when the feed comes up, and each time it is found down (with why). */
  watch(fn: (live: boolean, reason?: string) => void): () => void {
    this.#watchers.add(fn);
    return () => this.#watchers.delete(fn);
  }

  /** The stamp to take before a read whose result may be kept; undefined when results must not be kept. */
  stamp(): number | undefined {
    return this.#live ? this.#counter : undefined;
  }

  fresh(stamp: number, accountId: string, userId?: string, topic?: Topic): boolean {
    return (
      this.#live &&
      stamp >= this.#floor &&
      (topic === undefined || stamp >= (this.#topics.get(topic) ?? 0)) &&
      stamp >= (this.#accounts.get(accountId) ?? 0) &&
      (userId === undefined || stamp >= (this.#users.get(userId) ?? 0))
    );
  }

  /** Applies a change (from the trigger, or a write this process made) and tells subscribers. */
  publish(change: Change): void {
    const at = ++this.#counter;
    if (change.kind === 'all') this.#floor = at;
    else if (change.kind === 'account') this.#record(this.#accounts, change.accountId, at);
    else if (change.kind === 'user') this.#record(this.#users, change.userId, at);
    else if (change.kind === 'topic') this.#topics.set(change.topic, at);
    for (const fn of this.#subscribers) fn(change);
  }

  subscribe(fn: (change: Change) => void): () => void {
    this.#subscribers.add(fn);
    return () => this.#subscribers.delete(fn);
  }

  /** Resolves once every change committed before the call has been applied here. */
  sync(): Promise<void> {
    return this.#sync();
  }

  /** Set by the store whose listener can prove it has caught up. */
  setSync(fn: () => Promise<void>): void {
    this.#sync = fn;
  }

  #record(map: Map<string, number>, id: string, at: number): void {
    map.delete(id);
    map.set(id, at);
    if (map.size > this.maxTracked) {
      const [oldest, value] = map.entries().next().value!;
      map.delete(oldest);
      this.#floor = Math.max(this.#floor, value);
    }
  }
}
