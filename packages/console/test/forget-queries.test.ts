import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it } from 'vitest';
import { forgetQueries } from '../src/forget-queries.ts';

describe('forgetQueries', () => {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  afterEach(() => qc.clear());

  /** A query under `key` with a mounted reader (an observer), and how often it was fetched. */
  async function observed(key: string[]) {
    let fetches = 0;
    const options = { queryKey: key, queryFn: async () => ++fetches };
    const observer = new QueryObserver(qc, options);
    const unsubscribe = observer.subscribe(() => {});
    await expect.poll(() => observer.getCurrentResult().data).toBe(1);
    // A render of the component that reads it: React's useQuery sets the observer's options again.
    const render = () => observer.setOptions(options);
    return { unsubscribe, render, fetches: () => fetches };
  }

  it('drops unobserved queries at once and leaves other keys', async () => {
    await qc.prefetchQuery({ queryKey: ['definition', 'w1', 'current'], queryFn: async () => 'a' });
    await qc.prefetchQuery({ queryKey: ['definition', 'w1', 2], queryFn: async () => 'b' });
    await qc.prefetchQuery({ queryKey: ['definition', 'w2', 'current'], queryFn: async () => 'c' });
    forgetQueries(qc, ['definition', 'w1']);
    expect(
      qc
        .getQueryCache()
        .findAll()
        .map((q) => q.queryKey),
    ).toEqual([['definition', 'w2', 'current']]);
  });

  it('keeps an observed query until its reader goes, so a render in between fetches nothing', async () => {
    const page = await observed(['definition', 'w1', 'current']);
    forgetQueries(qc, ['definition', 'w1']);
    page.render();
    await new Promise((r) => setTimeout(r, 20));
    expect(page.fetches()).toBe(1);
    expect(qc.getQueryData(['definition', 'w1', 'current'])).toBe(1);
    page.unsubscribe();
    expect(qc.getQueryCache().find({ queryKey: ['definition', 'w1', 'current'] })).toBeUndefined();
  });

  it('is what removeQueries is not: removing an observed query makes the next render fetch it again', async () => {
    const page = await observed(['definition', 'w1', 'current']);
    qc.removeQueries({ queryKey: ['definition', 'w1'] });
    page.render();
    await expect.poll(() => page.fetches()).toBe(2);
    page.unsubscribe();
  });
});
