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
 * starts nothing: it records what exists as the baseline.
 */
export function applyPoll(
  state: AppTriggerState,
  items: TriggerItem[],
): { fresh: TriggerItem[]; next: AppTriggerState } {
  const seen = new Set(state.seen ?? []);
  const fresh: TriggerItem[] = [];
  for (const item of items) {
    if (!isNew(state, seen, item)) continue;
    seen.add(item.id);
    if (state.baseline) fresh.push(item);
  }
  let highWater = state.highWater;
  for (const item of items)
    if (
      item.position !== undefined &&
      (highWater === undefined || comparePositions(item.position, highWater) > 0)
    )
      highWater = item.position;
  const remembered = [...(state.seen ?? []), ...items.map((i) => i.id)];
  const { claim: _claim, failures: _f, lastError: _e, failingSince: _s, ...rest } = state;
  return {
    fresh,
    next: {
      ...rest,
      baseline: true,
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
