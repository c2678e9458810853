import { describe, expect, it } from 'vitest';
import { HOP_BY_HOP_HEADERS, hopByHop } from '../src/index.ts';

describe('hopByHop', () => {
  it('says the standard hop-by-hop headers are, and end-to-end ones are not', () => {
    const isHop = hopByHop(undefined);
    for (const name of HOP_BY_HOP_HEADERS) expect(isHop(name)).toBe(true);
    expect(HOP_BY_HOP_HEADERS.size).toBe(9);
    for (const name of ['content-type', 'authorization', 'x-custom', 'set-cookie'])
      expect(isHop(name)).toBe(false);
    expect(hopByHop(null)('x-custom')).toBe(false);
  });

  it('adds the names a Connection header lists, in any case and spacing, from a string or a list', () => {
    const one = hopByHop(' Keep-Alive , X-Trace ,,');
    expect(one('x-trace')).toBe(true);
    expect(one('keep-alive')).toBe(true);
    expect(one('x-other')).toBe(false);
    const list = hopByHop(['close', 'X-A, x-b']);
    expect(['x-a', 'x-b', 'upgrade'].map(list)).toEqual([true, true, true]);
    expect(list('x-c')).toBe(false);
  });
});
