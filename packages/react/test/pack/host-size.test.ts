import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module script without types.
import { BUDGET, hostSize } from '../../scripts/host-size.mjs';

interface Size {
  js: number;
  css: number;
  total: number;
  lazy: [file: string, bytes: number][];
}

describe("what the widget adds to a host's Vite build", () => {
  it('stays within the budget on the first view of every surface', async () => {
    const size: Size = await hostSize();
    // The measure is real bytes of a real build: both parts are there.
    expect(size.js).toBeGreaterThan(10 * 1024);
    expect(size.css).toBeGreaterThan(1024);
    expect(size.total).toBeLessThanOrEqual(BUDGET);
    // What no first view shows arrives on demand, each locale but English apart.
    const lazy = size.lazy.map(([file]) => file.replace(/-[\w-]+\.js$/, ''));
    expect(lazy.sort()).toEqual(['ConnectorPicker', 'KeyForm', 'RunDetails', 'de', 'es', 'fr', 'ja']);
  });
});
