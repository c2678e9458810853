// @vitest-environment jsdom
// A session that cannot be renewed: the service refuses the token and the host cannot give a better one.
import { cleanup, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { type InlayError, IntegrationsPage } from '../../src/index.ts';
import { seed } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

describe('an expired session', () => {
  it('calls onSessionExpired once and offers "Sign in again" instead of "Try again"', async () => {
    const user = userEvent.setup();
    const expired: InlayError[] = [];
    let tokens = 0;
    renderWidget(<IntegrationsPage />, {
      baseUrl: seed.url,
      // Every token the host hands out is one the service refuses (its session is gone).
      getToken: () => {
        tokens++;
        return { token: 'revoked', expiresAt: new Date(Date.now() + 3_600_000).toISOString() };
      },
      onSessionExpired: (e) => expired.push(e),
    });
    const button = await screen.findByRole('button', { name: 'Sign in again' });
    expect(screen.getByText('Your session has ended.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Try again' })).toBeNull();
    // The client asked the host for a new token after the 401 before giving up.
    expect(tokens).toBeGreaterThanOrEqual(2);
    expect(expired).toHaveLength(1);
    expect(expired[0]!.status).toBe(401);
    expect(expired[0]!.code).toBe('unauthorized');
    await user.click(button);
    expect(expired).toHaveLength(2);
  });
});
