// @vitest-environment node
// Server rendering and the stylesheet's scoping: no `window` at import or render, every selector under
// `.inlay` inside `@layer inlay`.
import { readFileSync } from 'node:fs';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ExecutionLogs, InlayProvider, InstallModal, IntegrationsPage } from '../src/index.ts';

describe('SSR', () => {
  it('renders every surface to a string without a DOM', () => {
    expect(typeof (globalThis as { window?: unknown }).window).toBe('undefined');
    const html = renderToString(
      <InlayProvider
        baseUrl="http://inlay.test"
        getToken={() => 'x'}
        colorScheme="dark"
        theme={{ accent: '#123456' }}
      >
        <IntegrationsPage />
        <InstallModal workflowId="00000000-0000-4000-8000-000000000000" defaultOpen />
        <ExecutionLogs workflowId="00000000-0000-4000-8000-000000000000" />
      </InlayProvider>,
    );
    expect(html).toContain('class="inlay inlay-page"');
    expect(html).toContain('data-scheme="dark"');
    expect(html).toContain('--inlay-accent:#123456');
    expect(html).toContain('Loading…');
    // The dialog portals only on the client.
    expect(html).not.toContain('role="dialog"');
  });
});

describe('styles.css', () => {
  const css = readFileSync(new URL('../src/styles.css', import.meta.url), 'utf8').replace(
    /\/\*[\s\S]*?\*\//g,
    '',
  );

  it('is one @layer inlay block', () => {
    expect(css.trim().startsWith('@layer inlay {')).toBe(true);
    expect(css.trim().endsWith('}')).toBe(true);
  });

  it('scopes every selector under .inlay', () => {
    const selectors: string[] = [];
    for (const m of css.matchAll(/([^{};]+)\{/g)) {
      const head = m[1]!.trim();
      if (head.startsWith('@') || /^\d+%$/.test(head) || head === 'from' || head === 'to') continue;
      // Commas inside `:where(…)` do not separate selectors.
      selectors.push(...head.split(/,(?![^(]*\))/).map((s) => s.trim()));
    }
    expect(selectors.length).toBeGreaterThan(50);
    expect(selectors.filter((s) => !s.startsWith('.inlay'))).toEqual([]);
  });

  it('has light and dark values for every color token', () => {
    const light = new Set([...css.matchAll(/(--inlay-[a-z-]+):/g)].map((m) => m[1]));
    const dark = css.slice(css.indexOf('[data-scheme="dark"]'), css.indexOf('@media'));
    for (const token of [
      '--inlay-bg',
      '--inlay-fg',
      '--inlay-muted',
      '--inlay-accent',
      '--inlay-danger',
      '--inlay-border',
    ])
      expect(light.has(token) && dark.includes(`${token}:`)).toBe(true);
  });
});
