import { configure, type RenderResult, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { type InlayEvent, InlayProvider, type InlayProviderProps } from '../../src/index.ts';

// The service runs on a shared 2-core machine: give it time before a `findBy…` gives up.
configure({ asyncUtilTimeout: 10_000 });

/** Renders `ui` inside a provider talking to the real service; `events` collects what `onEvent` hears. */
export function renderWidget(
  ui: ReactNode,
  props: Omit<InlayProviderProps, 'children'>,
): RenderResult & { events: InlayEvent[] } {
  const events: InlayEvent[] = [];
  const r = render(
    <InlayProvider onEvent={(e) => events.push(e)} {...props}>
      {ui}
    </InlayProvider>,
  );
  return Object.assign(r, { events });
}
