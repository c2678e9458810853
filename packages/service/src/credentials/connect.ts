import { redact, secretValues } from '@inlay/connectors';
import type { AppContext } from '../context.ts';
import { HttpProblem, unprocessable } from '../http/problem.ts';
import { checkCredentialFields } from './credential-fields.ts';
import type { CredentialRow } from './credential-service.ts';
import { shortReason } from './credentials.ts';

/**
 * Stores an API-key or basic credential once the connector's test request accepts it (REST and MCP share
 * this). A rejection is a 422 carrying the provider's reason, a provider that cannot be reached a 502;
 * either way nothing is stored.
 */
export async function connectWithSecrets(
  ctx: AppContext,
  user: { accountId: string; id: string },
  req: { connector: string; name?: string; data: Record<string, string> },
): Promise<CredentialRow> {
  const def = ctx.connectors.get(req.connector);
  if (!def) throw unprocessable('body.connector', 'exists', `no connector "${req.connector}"`);
  if (def.auth.type === 'oauth2')
    throw unprocessable('body.connector', 'auth_type', `${def.id} uses OAuth: use POST /credentials/oauth`);
  if (def.auth.type === 'none')
    throw unprocessable('body.connector', 'auth_type', `${def.id} needs no credential`);
  const fields = checkCredentialFields(def.auth.fields, req.data);
  const verdict = await ctx.connectors.test(def.id, { fields });
  if (!verdict.ok) {
    // The provider may quote what it was sent; the answer must not.
    const reason = redact(shortReason(verdict.reason), secretValues(Object.values(fields)));
    if (verdict.transient)
      throw new HttpProblem(
        502,
        'upstream_error',
        `Could not check the credential with ${def.name}: ${reason}`,
      );
    throw new HttpProblem(422, 'unprocessable', `${def.name} rejected the credential: ${reason}`, {
      errors: [{ field: 'body.data', rule: 'rejected', message: reason }],
      extra: { reason },
    });
  }
  return ctx.credentials.create({
    accountId: user.accountId,
    userId: user.id,
    connector: def.id,
    name: req.name ?? def.name,
    type: def.auth.type,
    secrets: { fields },
  });
}
