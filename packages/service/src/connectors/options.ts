import { type ConnectorDefinition, ConnectorError } from '@inlay/connectors';
import type { OptionItem } from '@inlay/contract';
import type { AppContext } from '../context.ts';
import type { ResolvedCredential } from '../credentials/credential-service.ts';
import { HttpProblem, invalid, unprocessable } from '../http/problem.ts';

/** The provider refuses the credential: the user reconnects it (`POST /credentials/oauth {credentialId}`). */
export const needsReconnect = (field: string, message: string) =>
  new HttpProblem(422, 'credential_needs_reconnect', `${field} ${message}`, {
    errors: [{ field, rule: 'needs_reconnect', message }],
  });

/** A connector that runs without a credential: no auth at all, or auth that is optional (the `http` built-in). */
export const needsNoCredential = (def: ConnectorDefinition) =>
  def.auth.type === 'none' || (def.auth.type === 'apiKey' && def.auth.optional === true);

/**
 * The user's credential for a connector, ready to use; `field` names where its id came from. A credential
 * that is another user's is reported exactly like a missing one (`missing` decides how).
 */
export async function usableCredential(
  ctx: AppContext,
  user: { accountId: string; id: string },
  def: ConnectorDefinition,
  credentialId: string | undefined,
  field: string,
  missing: () => HttpProblem,
): Promise<ResolvedCredential | undefined> {
  if (!credentialId) {
    if (needsNoCredential(def)) return undefined;
    throw invalid(field, 'required', `a credential for ${def.id} is required`);
  }
  const row = await ctx.credentials.find(user.accountId, user.id, credentialId);
  if (!row) throw missing();
  if (row.connector !== def.id)
    throw unprocessable(field, 'connector', `is a ${row.connector} credential, not ${def.id}`);
  const unusable = () =>
    unprocessable(
      field,
      'status',
      `is ${row.status}${row.statusReason ? ` (${row.statusReason})` : ''}: reconnect it`,
    );
  if (row.status === 'needs_reconnect')
    throw needsReconnect(
      field,
      `${def.name} credential needs reconnecting${row.statusReason ? ` (${row.statusReason})` : ''}`,
    );
  if (row.status !== 'connected') throw unusable();
  const resolved = await ctx.credentials.resolve(user.accountId, user.id, credentialId);
  if (!resolved) {
    const now = await ctx.credentials.find(user.accountId, user.id, credentialId);
    if (now?.status === 'needs_reconnect')
      throw needsReconnect(
        field,
        `${def.name} credential needs reconnecting${now.statusReason ? ` (${now.statusReason})` : ''}`,
      );
    throw unprocessable(
      field,
      'status',
      `is ${now?.status ?? 'gone'}${now?.statusReason ? ` (${now.statusReason})` : ''}: reconnect it`,
    );
  }
  return resolved;
}

/** Loads a dynamic option list with the user's credential; provider failures become 422 (rejected) or 502. */
export async function loadOptions(
  ctx: AppContext,
  def: ConnectorDefinition,
  source: string,
  credential: ResolvedCredential | undefined,
  field: string,
  user: { accountId: string; id: string },
  search?: string,
): Promise<OptionItem[]> {
  try {
    return await ctx.registry.runtimeOf(def).options(def.id, source, {
      onCall: ctx.providerCalls.listener({
        accountId: user.accountId,
        userId: user.id,
        credentialId: credential?.credentialId ?? null,
        connector: def.id,
        kind: 'options',
      }),
      credential: credential?.secrets,
      onUnauthorized: credential?.refresh,
      onAuthRefused: credential?.authRefused,
      search,
    });
  } catch (err) {
    if (!(err instanceof ConnectorError)) throw err;
    // The credential's settings (a subdomain, a site) chose a host the egress policy refuses.
    if (err.code === 'egress_denied')
      throw new HttpProblem(
        422,
        'egress_denied',
        `Could not load ${source} from ${def.name}: ${err.message}`,
        {
          errors: [{ field, rule: 'egress', message: err.message }],
        },
      );
    if (err.code === 'invalid_url') throw unprocessable(field, 'url', err.message);
    if (err.code === 'credential_needs_reconnect') throw needsReconnect(field, err.message);
    if (err.statusCode === 401 || err.statusCode === 403)
      throw unprocessable(field, 'rejected', `${def.name} rejected the credential: ${err.message}`);
    throw new HttpProblem(502, 'upstream_error', `Could not load ${source} from ${def.name}: ${err.message}`);
  }
}
