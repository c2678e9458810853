import { type RenderResult, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { type InlayEvent, InlayProvider, type InlayProviderProps } from '../../src/index.ts';

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
