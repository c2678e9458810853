// What the tests know about the service the global setup started (see global-setup.ts).
import { inject } from 'vitest';
import type { Seed } from './global-setup.ts';

export const seed: Seed = inject('inlay');

/** The service as the account (API key), from inside a test. */
export async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await fetch(seed.url + path, {
    method,
    headers: {
      authorization: `Bearer ${seed.apiKey}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

/** A `getToken` for one of the seeded users, minting a real JWT each call (counted in `calls`). */
export function tokenOf(user: keyof Seed['users']) {
  const f = async () => {
    f.calls++;
    const r = await api<{ token: string; expiresAt: string }>('GET', `/users/${seed.users[user]}/token`);
    if (r.status !== 200) throw new Error(`token: ${r.status}`);
    return r.body;
  };
  f.calls = 0;
  return f;
}
