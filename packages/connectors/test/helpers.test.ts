import { describe, expect, it } from 'vitest';
import { detailedMessage, linkNext, nextFromUrl, path, treeSource } from '../src/apps/helpers.ts';

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

  it('detailedMessage appends field details, with a colon unless the message ends a sentence', () => {
    expect(
      detailedMessage('Validation failed', [{ field: 'email', message: 'is invalid' }, { message: 'x' }]),
    ).toBe('Validation failed: email: is invalid; x');
    expect(detailedMessage('Validation Failed.', [{ field: 'a', message: 'b' }])).toBe(
      'Validation Failed. a: b',
    );
    expect(detailedMessage('Plain', [])).toBe('Plain');
    expect(detailedMessage(undefined, [{ message: 'x' }])).toBeUndefined();
  });

  it('treeSource walks parents breadth-first, paging each level, and labels leaves with their parents', async () => {
    const src = treeSource({
      description: 'lists',
      root: {
        request: () => ({ method: 'GET', path: '/spaces' }),
        items: (b: { spaces: { id: string }[] }) => b.spaces,
        children: [
          {
            request: (p: { id: string }) => ({ method: 'GET', path: `/spaces/${p.id}/lists` }),
            items: (b: { lists: { id: string }[] }) => b.lists,
            next: (res, req) =>
              (res.body as { more?: boolean }).more ? { ...req, query: { page: 2 } } : undefined,
          },
        ],
      },
      option: (l: { id: string }, parents: { id: string }[]) => ({
        value: l.id,
        label: `${parents[0]!.id}/${l.id}`,
      }),
    });
    const res = (body: unknown) => ({ status: 200, headers: {}, body });
    const walk: string[] = [];
    const options: unknown[] = [];
    const bodies: Record<string, unknown> = {
      '/spaces': { spaces: [{ id: 's1' }, { id: 's2' }] },
      '/spaces/s1/lists': { lists: [{ id: 'l1' }], more: true },
      '/spaces/s1/lists?2': { lists: [{ id: 'l2' }] },
      '/spaces/s2/lists': { lists: [{ id: 'l3' }] },
    };
    let req = src.request({}) as ReturnType<typeof src.request> | undefined;
    while (req) {
      const key = req.query?.page ? `${req.path}?${req.query.page}` : req.path;
      walk.push(key);
      for (const item of await src.items(bodies[key], req)) options.push(await src.option(item));
      req = src.paging!.next(res(bodies[key]), req);
    }
    expect(walk).toEqual(['/spaces', '/spaces/s1/lists', '/spaces/s1/lists?2', '/spaces/s2/lists']);
    expect(options).toEqual([
      { value: 'l1', label: 's1/l1' },
      { value: 'l2', label: 's1/l2' },
      { value: 'l3', label: 's2/l3' },
    ]);
    // Each walk keeps its own queue: starting again lists the roots again.
    expect(src.request({}).path).toBe('/spaces');
  });
});
