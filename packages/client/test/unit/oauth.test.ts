import type { Credential } from '@inlay/contract';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectOAuth, OAUTH_CHANNEL, OAuthError, takePendingOAuth } from '../../src/index.ts';

const ID = '7f0c1b7e-3c1a-4f43-9d55-2f1b3e0d8a11';
const SERVICE = 'http://svc.test:8080';
const AUTHORIZE = `http://provider.test/authorize?client_id=c&redirect_uri=${encodeURIComponent(`${SERVICE}/oauth/callback`)}&state=s`;

class FakePopup {
  closed = false;
  focused = 0;
  location = { href: 'about:blank' };
  document = { title: '' };
  close() {
    this.closed = true;
  }
  focus() {
    this.focused++;
  }
}

class FakeWindow extends EventTarget {
  popup: FakePopup | null = new FakePopup();
  opened: string[] = [];
  assigned: string[] = [];
  store = new Map<string, string>();
  location = {
    href: 'http://host.test/settings?tab=integrations',
    origin: 'http://host.test',
    assign: (url: string) => void this.assigned.push(url),
  };
  sessionStorage = {
    getItem: (k: string) => this.store.get(k) ?? null,
    setItem: (k: string, v: string) => void this.store.set(k, v),
    removeItem: (k: string) => void this.store.delete(k),
  };
  open(url: string) {
    this.opened.push(url);
    return this.popup;
  }
  post(data: unknown, origin: string) {
    const e = new Event('message') as MessageEvent;
    Object.defineProperties(e, { data: { value: data }, origin: { value: origin } });
    this.dispatchEvent(e);
  }
}

function fakeClient(status: () => Credential['status'] = () => 'pending') {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const calls: unknown[] = [];
  return {
    release,
    calls,
    baseUrl: `${SERVICE}`,
    credentials: {
      startOAuth: vi.fn(async (body: unknown) => {
        calls.push(body);
        await gate;
        return { credentialId: ID, authorizeUrl: AUTHORIZE };
      }),
      get: vi.fn(
        async () => ({ credentialId: ID, status: status(), statusReason: null }) as unknown as Credential,
      ),
    },
  };
}

const flush = () => new Promise((r) => setTimeout(r, 0));
afterEach(() => vi.useRealTimers());

describe('connectOAuth (popup)', () => {
  it('opens the popup synchronously, then points it at the authorize URL', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    const done = connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      pollIntervalMs: 10_000,
    });
    // Nothing has been awaited yet, and the popup already exists.
    expect(w.opened).toEqual(['about:blank']);
    expect(w.popup!.location.href).toBe('about:blank');
    expect(c.calls).toEqual([
      { connector: 'slack', name: undefined, popup: true, origin: 'http://host.test' },
    ]);
    c.release();
    await flush();
    expect(w.popup!.location.href).toBe(AUTHORIZE);
    w.post({ type: 'inlay:oauth', credentialId: ID, status: 'connected' }, SERVICE);
    await expect(done).resolves.toEqual({ credentialId: ID, status: 'connected', via: 'message' });
    expect(w.popup!.closed).toBe(true);
  });

  it('listens for the origin of Inlay’s start link, even when calls go through a host proxy', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    const start = 'https://inlay.example.com/oauth/start?flow=abc';
    c.credentials.startOAuth.mockImplementation(async () => ({ credentialId: ID, authorizeUrl: start }));
    const done = connectOAuth(
      { ...c, baseUrl: '/api/inlay' },
      { connector: 'slack', window: w as unknown as Window, pollIntervalMs: 10_000 },
    );
    await flush();
    expect(w.popup!.location.href).toBe(start);
    let settled = false;
    done.then(() => (settled = true));
    w.post({ type: 'inlay:oauth', credentialId: ID, status: 'connected' }, 'http://host.test');
    await flush();
    expect(settled).toBe(false);
    w.post({ type: 'inlay:oauth', credentialId: ID, status: 'connected' }, 'https://inlay.example.com');
    await expect(done).resolves.toEqual({ credentialId: ID, status: 'connected', via: 'message' });
  });

  it('ignores messages from other origins, other credentials and other shapes', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    const done = connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      pollIntervalMs: 10_000,
    });
    c.release();
    await flush();
    let settled = false;
    done.then(() => (settled = true));
    w.post({ type: 'inlay:oauth', credentialId: ID, status: 'connected' }, 'http://evil.test');
    w.post({ type: 'inlay:oauth', credentialId: 'other', status: 'connected' }, SERVICE);
    w.post({ type: 'something', credentialId: ID, status: 'connected' }, SERVICE);
    await flush();
    expect(settled).toBe(false);
    w.post({ type: 'inlay:oauth', credentialId: ID, status: 'failed', reason: 'access_denied' }, SERVICE);
    await expect(done).resolves.toEqual({
      credentialId: ID,
      status: 'failed',
      reason: 'access_denied',
      via: 'message',
    });
  });

  it('settles on the BroadcastChannel', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    const done = connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      pollIntervalMs: 10_000,
    });
    c.release();
    await flush();
    const bc = new BroadcastChannel(OAUTH_CHANNEL);
    bc.postMessage({ type: 'inlay:oauth', credentialId: ID, status: 'connected' });
    await expect(done).resolves.toMatchObject({ status: 'connected', via: 'broadcast' });
    bc.close();
  });

  it('settles by polling GET /credentials/{id} when no message arrives', async () => {
    const w = new FakeWindow();
    let status: Credential['status'] = 'pending';
    const c = fakeClient(() => status);
    const done = connectOAuth(c, { connector: 'slack', window: w as unknown as Window, pollIntervalMs: 5 });
    c.release();
    await new Promise((r) => setTimeout(r, 30));
    expect(c.credentials.get).toHaveBeenCalled();
    status = 'connected';
    await expect(done).resolves.toMatchObject({ status: 'connected', via: 'poll' });
  });

  it('rejects with popup_closed when the user closes the window and nothing connected', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    const done = connectOAuth(c, { connector: 'slack', window: w as unknown as Window, pollIntervalMs: 5 });
    c.release();
    await flush();
    w.popup!.closed = true;
    const err = await done.catch((e) => e);
    expect(err).toBeInstanceOf(OAuthError);
    expect(err.code).toBe('popup_closed');
    expect(c.credentials.get.mock.calls.length).toBeGreaterThanOrEqual(3);
  });

  it('closes the popup and rethrows when the service refuses to start', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    c.credentials.startOAuth.mockRejectedValueOnce(new Error('no OAuth app'));
    await expect(connectOAuth(c, { connector: 'slack', window: w as unknown as Window })).rejects.toThrow(
      'no OAuth app',
    );
    expect(w.popup!.closed).toBe(true);
  });

  it('reopens the sign-in window: focused while open, opened again on the provider once closed', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    let popup: { reopen(): void } | undefined;
    const done = connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      pollIntervalMs: 5,
      onPopup: (p) => (popup = p),
    });
    expect(popup).toBeUndefined(); // not before the authorize URL is known
    c.release();
    await flush();
    const first = w.popup!;
    popup!.reopen();
    expect(first.focused).toBe(1);
    expect(w.opened).toEqual(['about:blank']);
    // The user closes it; reopening opens the provider's page again, and the flow carries on with it.
    first.closed = true;
    w.popup = new FakePopup();
    popup!.reopen();
    expect(w.opened).toEqual(['about:blank', AUTHORIZE]);
    await new Promise((r) => setTimeout(r, 40));
    w.post({ type: 'inlay:oauth', credentialId: ID, status: 'connected' }, SERVICE);
    await expect(done).resolves.toMatchObject({ status: 'connected', via: 'message' });
    expect(w.popup.closed).toBe(true);
  });

  it('can be aborted', async () => {
    const w = new FakeWindow();
    const c = fakeClient();
    const ac = new AbortController();
    const done = connectOAuth(c, { connector: 'slack', window: w as unknown as Window, signal: ac.signal });
    c.release();
    await flush();
    ac.abort();
    await expect(done).rejects.toMatchObject({ code: 'aborted' });
  });
});

describe('connectOAuth (blocked popup)', () => {
  it('falls back to a full-page redirect and leaves the pending connection in sessionStorage', async () => {
    const w = new FakeWindow();
    w.popup = null;
    const c = fakeClient();
    c.release();
    const r = await connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      state: { step: 1 },
    });
    expect(r).toEqual({ credentialId: ID, status: 'pending', via: 'redirect' });
    expect(c.calls).toEqual([
      {
        connector: 'slack',
        name: undefined,
        popup: false,
        redirectUri: 'http://host.test/settings?tab=integrations',
      },
    ]);
    expect(w.assigned).toEqual([AUTHORIZE]);
    const pending = takePendingOAuth(w as unknown as Window);
    expect(pending).toMatchObject({ credentialId: ID, connector: 'slack', state: { step: 1 } });
    expect(takePendingOAuth(w as unknown as Window)).toBeUndefined();
  });

  it('asks onPopupBlocked first: nothing starts until it answers, and false gives up', async () => {
    const w = new FakeWindow();
    w.popup = null;
    const c = fakeClient();
    c.release();
    let answer!: (go: boolean) => void;
    const done = connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      onPopupBlocked: () => new Promise<boolean>((r) => (answer = r)),
    });
    await flush();
    expect(c.calls).toEqual([]);
    expect(w.assigned).toEqual([]);
    answer(false);
    await expect(done).rejects.toMatchObject({ code: 'popup_blocked' });
    expect(c.calls).toEqual([]);

    const again = connectOAuth(c, {
      connector: 'slack',
      window: w as unknown as Window,
      onPopupBlocked: () => true,
    });
    await expect(again).resolves.toMatchObject({ status: 'pending', via: 'redirect' });
    expect(w.assigned).toEqual([AUTHORIZE]);
  });
});
