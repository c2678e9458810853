import { type ComponentProps, type ComponentType, lazy, Suspense, useEffect, useState } from 'react';
import type { ConnectorPicker as ConnectorPickerType } from './ConnectorPicker.tsx';
import type { KeyForm as KeyFormType } from './KeyForm.tsx';
import type { RunDetails as RunDetailsType } from './RunDetails.tsx';
import { Skeleton } from './States.tsx';

/** A component whose module loads on demand, and `preload()`, which fetches it ahead of the first render. */
export type Deferred<C extends ComponentType<any>> = ComponentType<ComponentProps<C>> & {
  preload: () => Promise<unknown>;
};

/**
 * A part no first view shows: its module is a chunk of its own in the host's build. The surfaces that may
 * show it call `preload()` once they are on screen, so it is usually there before a click needs it and renders
 * at once (its own focus and autofocus work as if it were never split); until then a skeleton stands in.
 */
function deferred<C extends ComponentType<any>>(load: () => Promise<C>, rows: number): Deferred<C> {
  let loaded: C | undefined;
  let pending: Promise<C> | undefined;
  const preload = () => {
    pending ??= load().then(
      (component) => (loaded = component),
      (err) => {
        // A chunk that failed to arrive (a flaky network) is asked for again next time.
        pending = undefined;
        throw err;
      },
    );
    return pending;
  };
  const Lazy = lazy(() => preload().then((component) => ({ default: component })));
  // biome-ignore lint/correctness/noComponentHookFactories: made once per part, at module load, never in a render.
  function Deferred(props: ComponentProps<C>) {
    // Fixed per instance: switching from the lazy wrapper to the module's own component would remount it.
    const [Component] = useState<ComponentType<any>>(() => loaded ?? Lazy);
    return (
      <Suspense fallback={<Skeleton rows={rows} />}>
        <Component {...props} />
      </Suspense>
    );
  }
  return Object.assign(Deferred, { preload });
}

/** Fetches `parts` once the calling surface is on screen, so a click that needs one finds it loaded. */
export function usePreload(...parts: Deferred<any>[]) {
  // biome-ignore lint/correctness/useExhaustiveDependencies: the parts are module constants.
  useEffect(() => {
    for (const part of parts) part.preload().catch(() => {});
  }, []);
}

/** The fields of an API-key or basic credential, where an account is reconnected (ConnectorPicker holds its own). */
export const KeyForm = deferred<typeof KeyFormType>(() => import('./KeyForm.tsx').then((m) => m.KeyForm), 2);

/** A run's trigger data and steps; shown once the user opens its details. */
export const RunDetails = deferred<typeof RunDetailsType>(
  () => import('./RunDetails.tsx').then((m) => m.RunDetails),
  3,
);

/** How an installation's app account is chosen or connected; shown on the install dialog's accounts step. */
export const ConnectorPicker = deferred<typeof ConnectorPickerType>(
  () => import('./ConnectorPicker.tsx').then((m) => m.ConnectorPicker),
  2,
);
