import { createHmac } from 'node:crypto';
import { createUser } from '@inlay/test-kit/fixtures';
import { expectProblem, ISO_MS_RE, type Service, sharedService, UUID_RE } from '@inlay/test-kit/service';
import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { loadOrCreateSigningKey } from '../../src/tokens/signing-keys.ts';

let svc: Service;
let acct: { accountId: string; apiKey: string };
let userId: string;

const b64url = (v: unknown) =>
  Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

beforeAll(async () => {
  svc = await sharedService();
  acct = await svc.account();
  userId = await createUser(svc, acct.apiKey, 'tok');
});
afterAll(() => svc?.close());

async function signed(claims: Record<string, unknown>, exp: number) {
  const key = await loadOrCreateSigningKey(svc.db, svc.ctx.vault);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'EdDSA', kid: key.kid })
    .setIssuedAt()
    .setExpirationTime(exp)
    .setJti('x')
    .sign(key.privateKey);
}

describe('user tokens', () => {
  it('mints a JWT that verifies against the JWKS with the pinned algorithm, iss, aud and exp', async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await svc.call('GET', `/users/${userId}/token?userId=${userId}`, { auth: acct.apiKey });
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-store');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
    // The bytes `res.json` would send.
    expect(r.text).toBe(JSON.stringify({ token: r.body.token, expiresAt: r.body.expiresAt }));
    expect(r.body.expiresAt).toMatch(ISO_MS_RE);
    const jwks = createRemoteJWKSet(new URL(`${svc.url}/.well-known/jwks.json`));
    const { payload, protectedHeader } = await jwtVerify(r.body.token, jwks, {
      algorithms: ['EdDSA'],
      issuer: svc.url,
      audience: 'inlay',
      requiredClaims: ['exp'],
    });
    expect(protectedHeader.alg).toBe('EdDSA');
    expect(payload).toMatchObject({ iss: svc.url, aud: 'inlay', sub: userId, acct: acct.accountId });
    expect(payload.jti).toMatch(UUID_RE);
    expect(payload.exp! - payload.iat!).toBe(1800);
    expect(payload.iat).toBeGreaterThanOrEqual(before);
    expect(Date.parse(r.body.expiresAt)).toBe(payload.exp! * 1000);
  });

  it('refuses a token once it has expired, though it was accepted (and remembered) before', async () => {
    const exp = Math.floor(Date.now() / 1000) + 60;
    const token = await signed({ acct: acct.accountId, sub: userId, iss: svc.url, aud: 'inlay' }, exp);
    for (let i = 0; i < 2; i++)
      expect((await svc.call('GET', '/workflows', { auth: token })).status).toBe(200);
    // The service runs in this process: only its clock moves past the expiry (its timers stay real).
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    try {
      vi.setSystemTime((exp + 1) * 1000);
      expectProblem(await svc.call('GET', '/workflows', { auth: token }), 401, 'unauthorized');
    } finally {
      vi.useRealTimers();
    }
  });

  it('mints by username and publishes the key with its kid', async () => {
    const r = await svc.call('GET', '/users/tok/token', { auth: acct.apiKey });
    const { kid } = decodeProtectedHeader(r.body.token);
    const jwks = (await svc.call('GET', '/.well-known/jwks.json')).body;
    expect(jwks.keys).toContainEqual(
      expect.objectContaining({ kid, kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', use: 'sig' }),
    );
    expect(JSON.stringify(jwks)).not.toContain('"d"');
  });

  it('accepts the token on user-level routes', async () => {
    const { token } = (await svc.call('GET', `/users/${userId}/token`, { auth: acct.apiKey })).body;
    const r = await svc.call('GET', `/users/${userId}`, { auth: token });
    expect(r.status).toBe(200);
    expect(r.body.data.userId).toBe(userId);
  });

  it('rejects expired, tampered and forged tokens with 401', async () => {
    const { token } = (await svc.call('GET', `/users/${userId}/token`, { auth: acct.apiKey })).body;
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const now = Math.floor(Date.now() / 1000);
    const base = { sub: userId, acct: acct.accountId, iss: svc.url, aud: 'inlay' };
    const jwk = (await svc.call('GET', '/.well-known/jwks.json')).body.keys[0];
    const hs256 = (() => {
      const head = b64url({ alg: 'HS256', typ: 'JWT' });
      const body = b64url({ ...claims });
      const sig = createHmac('sha256', JSON.stringify(jwk)).update(`${head}.${body}`).digest('base64url');
      return `${head}.${body}.${sig}`;
    })();
    const cases: Record<string, string> = {
      expired: await signed(base, now - 10),
      'wrong audience': await signed({ ...base, aud: 'other' }, now + 600),
      'wrong issuer': await signed({ ...base, iss: 'https://evil.example' }, now + 600),
      tampered: `${h}.${b64url({ ...claims, sub: '00000000-0000-4000-8000-000000000000' })}.${s}`,
      'alg none': `${b64url({ alg: 'none', typ: 'JWT' })}.${p}.`,
      'HS256 with the public key': hs256,
      garbage: 'not.a.jwt',
    };
    for (const [name, bad] of Object.entries(cases)) {
      const r = await svc.call('GET', `/users/${userId}`, { auth: bad });
      expect(r.status, name).toBe(401);
      expectProblem(r, 401, 'unauthorized');
    }
  });

  it('answers 404 for a user of another account', async () => {
    const other = await svc.account('other');
    expectProblem(await svc.call('GET', `/users/${userId}/token`, { auth: other.apiKey }), 404, 'not_found');
  });
});
