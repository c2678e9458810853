import { redact, secretValues } from '@inlay/connectors';
import type { AppContext } from '../context.ts';
import { HttpProblem, notFound, unprocessable } from '../http/problem.ts';
import { checkBoundFields, checkFilledBaseUrl } from './bound-fields.ts';
import { checkCredentialFields } from './credential-fields.ts';
import type { CredentialRow } from './credential-row.ts';
import { shortReason } from './credentials.ts';

/**
 * Checks API-key or basic secrets with the connector's test request (REST and MCP share this). A rejection
 * is a 422 carrying the provider's reason, a provider that cannot be reached a 502; either way nothing is
 * stored. Returns the fields to seal and the account label the test read.
 */
async function checkedSecrets(
  ctx: AppContext,
  accountId: string,
  connector: string,
  data: Record<string, string>,
  who: { userId: string; credentialId?: string },
) {
  const connectors = await ctx.registry.forAccount(accountId);
  const def = connectors.get(connector);
  if (!def) throw unprocessable('body.connector', 'exists', `no connector "${connector}"`);
  if (def.auth.type === 'oauth2')
    throw unprocessable('body.connector', 'auth_type', `${def.id} uses OAuth: use POST /credentials/oauth`);
  if (def.auth.type === 'none')
    throw unprocessable('body.connector', 'auth_type', `${def.id} needs no credential`);
  const { fields, allowedOrigins } = checkBoundFields(def, checkCredentialFields(def.auth.fields, data));
  checkFilledBaseUrl(connectors, def, fields);
  const verdict = await connectors.test(
    def.id,
    { fields },
    { onCall: ctx.providerCalls.listener({ accountId, ...who, connector: def.id, kind: 'test' }) },
  );
  if (!verdict.ok) {
    // The provider may quote what it was sent; the answer must not.
    const reason = redact(shortReason(verdict.reason), secretValues(Object.values(fields)));
    if (verdict.code === 'egress_denied')
      throw new HttpProblem(
        422,
        'egress_denied',
        `Could not check the credential with ${def.name}: ${reason}`,
        {
          errors: [{ field: 'body.data', rule: 'egress', message: reason }],
        },
      );
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
  return { def, fields, allowedOrigins, accountLabel: verdict.accountLabel };
}

/** Stores an API-key or basic credential once the connector's test request accepts it. */
export async function connectWithSecrets(
  ctx: AppContext,
  user: { accountId: string; id: string },
  req: { connector: string; name?: string; data: Record<string, string> },
): Promise<CredentialRow> {
  const { def, fields, allowedOrigins, accountLabel } = await checkedSecrets(
    ctx,
    user.accountId,
    req.connector,
    req.data,
    { userId: user.id },
  );
  return ctx.credentials.create({
    accountId: user.accountId,
    userId: user.id,
    connector: def.id,
    name: req.name ?? def.name,
    type: def.auth.type as 'apiKey' | 'basic',
    secrets: { fields },
    allowedOrigins,
    accountLabel,
  });
}

/**
 * `PUT /credentials/{id}` (and MCP `create_credential_inlay` with a `credentialId`): new secrets for an
 * API-key or basic credential, in place once they pass the test, so its installations keep working.
 */
export async function replaceSecrets(
  ctx: AppContext,
  row: CredentialRow,
  data: Record<string, string>,
): Promise<CredentialRow> {
  if (row.type === 'oauth2')
    throw unprocessable(
      'path.credentialId',
      'auth_type',
      'is an OAuth credential: reconnect it with POST /credentials/oauth {connector, credentialId}',
    );
  const { fields, allowedOrigins, accountLabel } = await checkedSecrets(
    ctx,
    row.accountId,
    row.connector,
    data,
    { userId: row.userId, credentialId: row.id },
  );
  const written = await ctx.credentials.replace(row, { fields }, { accountLabel, allowedOrigins });
  if (!written) throw notFound('Credential');
  return written;
}
