import { z } from 'zod';
import { IsoDateTime, Uuid } from './common.ts';

export const JWT_AUDIENCE = 'inlay';
export const JWT_ALGORITHM = 'EdDSA';

export const UserToken = z
  .object({
    token: z.string(),
    expiresAt: IsoDateTime.meta({ description: 'Additive: when the token expires' }),
  })
  .meta({ id: 'UserToken' });
export type UserToken = z.infer<typeof UserToken>;

/** Claims of a user JWT. Verifiers pin `alg` EdDSA, `iss`, `aud` and require `exp`. */
export const UserJwtClaims = z
  .object({
    iss: z.string(),
    aud: z.literal(JWT_AUDIENCE),
    sub: Uuid,
    acct: Uuid,
    iat: z.number().int(),
    exp: z.number().int(),
    jti: z.string(),
  })
  .meta({ id: 'UserJwtClaims' });
export type UserJwtClaims = z.infer<typeof UserJwtClaims>;

export const Jwk = z.object({
  kty: z.string(),
  crv: z.string(),
  x: z.string(),
  kid: z.string(),
  alg: z.string(),
  use: z.string(),
});
export const Jwks = z.object({ keys: z.array(Jwk) }).meta({ id: 'Jwks' });
export type Jwks = z.infer<typeof Jwks>;
