import { useCallback, useRef, useState } from 'react';

export type ClassNames<Slot extends string> = Partial<Record<Slot, string>>;

/** Joins class names, skipping empty ones. */
export const cx = (...c: (string | false | null | undefined)[]) => c.filter(Boolean).join(' ');

/** Radix-style controlled/uncontrolled state: `prop` wins when defined; `onChange` hears every change. */
export function useControllableState<T>(
  prop: T | undefined,
  defaultProp: T,
  onChange?: (value: T) => void,
): [T, (value: T) => void] {
  const [own, setOwn] = useState(defaultProp);
  const controlled = prop !== undefined;
  const value = controlled ? prop : own;
  const ref = useRef(onChange);
  ref.current = onChange;
  const set = useCallback(
    (next: T) => {
      if (!controlled) setOwn(next);
      ref.current?.(next);
    },
    [controlled],
  );
  return [value, set];
}

/** How long a run or step took in ms, or null while it runs. */
export const durationOf = (l: { startedAt: string; stoppedAt?: string }) =>
  l.stoppedAt ? Date.parse(l.stoppedAt) - Date.parse(l.startedAt) : null;
