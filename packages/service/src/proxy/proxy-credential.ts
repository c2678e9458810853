import type { ConnectorDefinition } from '@inlay/connectors';
import { and, eq } from 'drizzle-orm';
import { needsNoCredential, usableCredential } from '../connectors/options.ts';
import type { AppContext } from '../context.ts';
import type { ResolvedCredential } from '../credentials/credential-service.ts';
import { HttpProblem, invalid, notFound } from '../http/problem.ts';
import { isUuid } from '../http/validate.ts';
import { credentials } from '../store/schema.ts';

export const CREDENTIAL_HEADER = 'x-inlay-credential-id';
const FIELD = `header.${CREDENTIAL_HEADER}`;

/**
 * The credential a proxy call acts with: the one `x-inlay-credential-id` names, else the user's only
 * connected credential for the connector (several: 409; none: 404). Another user's or account's
 * credential answers exactly like a missing one.
 */
export async function proxyCredential(
  ctx: AppContext,
  user: { accountId: string; id: string },
  def: ConnectorDefinition,
  header: string | string[] | undefined,
): Promise<ResolvedCredential | undefined> {
  if (Array.isArray(header)) throw invalid(FIELD, 'single', 'must be given once');
  if (header !== undefined) {
    if (!isUuid(header)) throw invalid(FIELD, 'uuid', 'must be a credential id (UUID)');
    return usableCredential(ctx, user, def, header.toLowerCase(), FIELD, () => notFound('Credential'));
  }
  if (needsNoCredential(def)) return undefined;
  const rows = await ctx.db
    .select({ id: credentials.id })
    .from(credentials)
    .where(
      and(
        eq(credentials.accountId, user.accountId),
        eq(credentials.userId, user.id),
        eq(credentials.connector, def.id),
        eq(credentials.status, 'connected'),
      ),
    )
    .limit(2);
  if (rows.length === 0) throw notFound(`Connected ${def.name} credential`);
  if (rows.length > 1)
    throw new HttpProblem(
      409,
      'conflict',
      `${FIELD}: the user has several connected ${def.name} credentials; name one`,
      { errors: [{ field: FIELD, rule: 'required', message: 'names which of several credentials to use' }] },
    );
  return usableCredential(ctx, user, def, rows[0]!.id, FIELD, () => notFound('Credential'));
}
