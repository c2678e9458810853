import { createHmac, createPublicKey, KeyObject, randomUUID, sign } from 'node:crypto';
import { loadOrCreateSigningKey } from '@inlay/service/testing';
import type { Service } from './service.ts';

const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * Every kind of token an attacker might present, built for one victim user. Some are signed with the
 * service's real private key (expired, wrong aud/iss) so only the claim check can reject them.
 */
export async function forgedTokens(
  svc: Service,
  victim: { accountId: string; userId: string },
  /** A valid token of another user: its payload is re-pointed at the victim, signature kept. */
  attackerJwt: string,
) {
  const key = await loadOrCreateSigningKey(svc.db, svc.ctx.vault);
  const priv = KeyObject.from(key.privateKey as never);
  const now = Math.floor(Date.now() / 1000);
  const claims = {
    acct: victim.accountId,
    iss: svc.config.publicUrl,
    aud: 'inlay',
    sub: victim.userId,
    iat: now,
    exp: now + 600,
    jti: randomUUID(),
  };
  const signed = (payload: object, header: object = { alg: 'EdDSA', kid: key.kid, typ: 'JWT' }) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return `${input}.${sign(null, Buffer.from(input), priv).toString('base64url')}`;
  };
  const jwks = (await svc.ctx.tokens.jwks()).keys.find((k) => k.kid === key.kid)!;
  const hs256 = (secret: Buffer | string) => {
    const input = `${b64({ alg: 'HS256', kid: key.kid, typ: 'JWT' })}.${b64(claims)}`;
    return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
  };
  const [h, p, s] = attackerJwt.split('.') as [string, string, string];
  const payload = JSON.parse(Buffer.from(p, 'base64url').toString());
  const publicPem = createPublicKey(priv).export({ type: 'spki', format: 'pem' }) as string;
  return {
    expired: signed({ ...claims, iat: now - 7200, exp: now - 3600 }),
    'wrong aud': signed({ ...claims, aud: 'someone-else' }),
    'wrong iss': signed({ ...claims, iss: 'https://evil.example' }),
    'no exp': signed({ ...claims, exp: undefined }),
    'alg none': `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
    'alg none, signature kept': `${b64({ alg: 'none', typ: 'JWT' })}.${p}.${s}`,
    'HS256 with the public JWK x': hs256(Buffer.from(jwks.x!, 'base64url')),
    'HS256 with the public key PEM': hs256(publicPem),
    'HS256 with the JWKS JSON': hs256(JSON.stringify(jwks)),
    'tampered payload (sub → victim)': `${h}.${b64({ ...payload, sub: victim.userId, acct: victim.accountId })}.${s}`,
    'tampered payload (exp)': `${h}.${b64({ ...payload, sub: victim.userId, exp: payload.exp + 86_400 })}.${s}`,
    'tampered signature': `${h}.${p}.${s.slice(0, -4)}AAAA`,
  };
}
