import type { AppContext } from '../context.ts';
import { credentials } from '../store/schema.ts';

/** A credential that a deletion removed, as the `credential.deleted` event names it. */
export interface DeletedCredential {
  id: string;
  userId: string;
  connector: string;
  name: string;
}

/** The columns a deletion returns for `announceDeleted`. */
export const DELETED = {
  id: credentials.id,
  userId: credentials.userId,
  connector: credentials.connector,
  name: credentials.name,
};

/** Why a credential went: the user deleted it, uninstalled with `deleteCredentials`, or its connector went. */
export type DeletionReason = 'deleted' | 'uninstalled' | 'connector_deleted';

/**
 * Queues `credential.deleted` for each credential a committed deletion removed, so a host that mirrors its users'
 * connections learns of those the end user removed in the widget, and of those a custom connector took with it.
 * Deleting a user sends none: the host asked for that itself, and everything of the user's goes with it.
 */
export function announceDeleted(
  ctx: Pick<AppContext, 'events'>,
  accountId: string,
  rows: DeletedCredential[],
  reason: DeletionReason,
): void {
  for (const row of rows)
    void ctx.events.emit(accountId, 'credential.deleted', {
      credentialId: row.id,
      userId: row.userId,
      connector: row.connector,
      name: row.name,
      reason,
    });
}
