import { describe, expect, it } from 'vitest';
import { linkNext, nextFromUrl, path } from '../src/apps/helpers.ts';

describe('app helpers', () => {
  it('path encodes each value as one segment and refuses dot segments', () => {
    expect(path`/repos/${'acme'}/${'a/b c'}/issues/${42}`).toBe('/repos/acme/a%2Fb%20c/issues/42');
    expect(() => path`/repos/${'..'}/x`).toThrow('Invalid path segment ".."');
    expect(() => path`/tasks/${''}`).toThrow('Invalid path segment ""');
  });

  it('linkNext finds rel=next among other relations', () => {
    const res = (link: string) => ({ status: 200, body: null, headers: { link } });
    expect(
      linkNext(res('<https://a.test/x?page=1>; rel="prev", <https://a.test/x?page=3>; rel="next"'))?.href,
    ).toBe('https://a.test/x?page=3');
    expect(linkNext(res('<https://a.test/x?page=2>; title="p"; rel=next'))?.href).toBe(
      'https://a.test/x?page=2',
    );
    expect(linkNext(res('<https://a.test/x?page=2>; rel="last nextish"'))).toBeUndefined();
    expect(linkNext({ status: 200, body: null, headers: {} })).toBeUndefined();
  });

  it('nextFromUrl keeps only the query of a next link, never its host', () => {
    const req = { method: 'GET' as const, path: '/lists', query: { page_size: 100 } };
    expect(nextFromUrl(req, 'https://evil.test/other?page_token=t2&page_size=100')).toEqual({
      method: 'GET',
      path: '/lists',
      query: { page_token: 't2', page_size: '100' },
    });
    expect(nextFromUrl(req, null)).toBeUndefined();
  });
});
