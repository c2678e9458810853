import { comparePositions, type TriggerItem } from '@inlay/connectors';
import type { AppTriggerState } from '../../store/schema.ts';

/** How many item ids a trigger remembers; older ones are covered by the high-water mark. */
export const SEEN_LIMIT = 1000;

/** Whether an item is new: never seen, and not older than the high-water mark. */
export function isNew(state: AppTriggerState, seen: Set<string>, item: TriggerItem): boolean {
  if (seen.has(item.id)) return false;
  return !(
    item.position !== undefined &&
    state.highWater !== undefined &&
    comparePositions(item.position, state.highWater) < 0
  );
}

/**
 * The items of a poll to start runs for (oldest first, once each) and the state after it. The first poll
 * starts nothing: it records what exists as the baseline. `more` says an oldest-first list has pages left
 * past this poll's cap: `again` then asks for the next poll at once (from the new high-water mark), and a
 * baseline is not complete until the list's end was read, or a poll no longer moves (a list that ignores
 * `since` would otherwise be read again and again).
 */
export function applyPoll(
  state: AppTriggerState,
  items: TriggerItem[],
  more = false,
): { fresh: TriggerItem[]; next: AppTriggerState; again: boolean } {
  const seen = new Set(state.seen ?? []);
  const fresh: TriggerItem[] = [];
  let unseen = false;
  for (const item of items) {
    if (!isNew(state, seen, item)) continue;
    seen.add(item.id);
    unseen = true;
    if (state.baseline) fresh.push(item);
  }
  let highWater = state.highWater;
  for (const item of items)
    if (
      item.position !== undefined &&
      (highWater === undefined || comparePositions(item.position, highWater) > 0)
    )
      highWater = item.position;
  const again = more && (unseen || highWater !== state.highWater);
  const remembered = [...(state.seen ?? []), ...items.map((i) => i.id)];
  const { claim: _claim, failures: _f, lastError: _e, failingSince: _s, ...rest } = state;
  return {
    fresh,
    again,
    next: {
      ...rest,
      baseline: Boolean(state.baseline) || !again,
      seen: [...new Set(remembered.reverse())].slice(0, SEEN_LIMIT).reverse(),
      ...(highWater !== undefined ? { highWater } : {}),
    },
  };
}

/** The state after a failed poll: one more failure, its reason, and when the failures began. */
export function applyFailure(state: AppTriggerState, reason: string, now: Date): AppTriggerState {
  const { claim: _claim, ...rest } = state;
  return {
    ...rest,
    failures: (state.failures ?? 0) + 1,
    lastError: reason.slice(0, 500),
    failingSince: state.failingSince ?? now.toISOString(),
  };
}
