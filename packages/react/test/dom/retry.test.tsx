// @vitest-environment jsdom
// The widget's retry policy: a failure that may pass (unreachable, 5xx, 429) is tried once more, an answer that
// will not change (4xx) is not, also on a QueryClient the host brings with TanStack's default of 3 retries.
import { createUserClient } from '@inlay/client';
import { QueryClient } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { InlayProvider, IntegrationsPage } from '../../src/index.ts';
import { retry } from '../../src/retry.ts';

afterEach(cleanup);

describe('retry()', () => {
  it.each([
    [0, { status: 0 }, true],
    [0, { status: 503 }, true],
    [0, { status: 429 }, true],
    [0, new TypeError('fetch failed'), true],
    [1, { status: 503 }, false],
    [1, { status: 0 }, false],
    [0, { status: 400 }, false],
    [0, { status: 401 }, false],
    [0, { status: 404 }, false],
  ])('after %i failure(s) of %o: %s', (failures, err, again) => {
    expect(retry(failures, err)).toBe(again);
  });
});

/** A client whose `/workflows` always answers `status` (0: the network fails), counting the attempts. */
function failing(status: number) {
  const seen = { attempts: 0 };
  const client = createUserClient({
    baseUrl: 'http://inlay.invalid',
    getToken: () => 'token',
    fetch: async (input) => {
      if (new URL(String(input)).pathname === '/workflows') seen.attempts++;
      if (status === 0) throw new TypeError('fetch failed');
      return new Response(JSON.stringify({ status, code: 'x', title: 'x', detail: `HTTP ${status}` }), {
        status,
        headers: { 'content-type': 'application/problem+json' },
      });
    },
  });
  return { client, seen };
}

describe.each([
  ['its own QueryClient', () => undefined],
  ["the host's QueryClient (3 retries by default)", () => new QueryClient()],
])('<IntegrationsPage> with %s', (_, queryClient) => {
  it.each([
    [0, 2],
    [503, 2],
    [404, 1],
    [403, 1],
  ])('a %i is tried %i time(s), then shown', async (status, attempts) => {
    const { client, seen } = failing(status);
    render(
      <InlayProvider client={client} queryClient={queryClient()}>
        <IntegrationsPage />
      </InlayProvider>,
    );
    await screen.findByRole('alert', {}, { timeout: 5000 });
    expect(seen.attempts).toBe(attempts);
  });
});
