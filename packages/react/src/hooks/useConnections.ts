import { type Credential, inlayKeys, type Workflow } from '@inlay/client';
import { useCallback, useMemo } from 'react';
import { useConnect } from './useConnect.ts';
import { useCredentials } from './useCredentials.ts';
import { useInlay } from './useInlay.ts';
import { useInstallations } from './useInstallations.ts';
import { useWorkflows } from './useWorkflows.ts';

/** One connected account of the user: the credential (label, status) and the workflows that use it. */
export interface Connection {
  credential: Credential;
  workflows: Pick<Workflow, 'workflowId' | 'name'>[];
}

/**
 * The signed-in user's connected accounts, each with the workflows whose installations use it, plus what a
 * connections screen does with them: test, reconnect in place (OAuth: call it from a click handler, the popup
 * opens synchronously), rename and disconnect (`detach: true` removes it from the installations using it).
 */
export function useConnections() {
  const { client, queryClient } = useInlay();
  const credentials = useCredentials();
  const installations = useInstallations();
  const workflows = useWorkflows();
  const connect = useConnect();

  const data = useMemo<Connection[] | undefined>(() => {
    // Wait for all three: a card must not say "Not used by any workflow" (or show a raw id) while the
    // installations or the workflow names are still on their way.
    if (!credentials.data || !installations.data || !workflows.data) return undefined;
    const names = new Map(workflows.data.map((w) => [w.workflowId, w.name]));
    return (
      credentials.data
        // A sign-in under way, or one that ended without an account (denied, abandoned), is no account yet.
        .filter((c) => c.status !== 'pending' && c.status !== 'failed')
        .map((credential) => ({
          credential,
          workflows: installations.data
            .filter((i) => Object.values(i.credentialIds).includes(credential.credentialId))
            .flatMap((i) => i.workflowIds)
            .map((workflowId) => ({ workflowId, name: names.get(workflowId) ?? workflowId })),
        }))
    );
  }, [credentials.data, installations.data, workflows.data]);

  const refresh = useCallback(
    () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: inlayKeys.credentials(client.baseUrl) }),
        queryClient.invalidateQueries({ queryKey: inlayKeys.workflows(client.baseUrl) }),
        queryClient.invalidateQueries({ queryKey: inlayKeys.installations(client.baseUrl) }),
      ]),
    [client, queryClient],
  );

  return {
    data,
    isLoading: credentials.isLoading || installations.isLoading || workflows.isLoading,
    error: credentials.error ?? installations.error ?? workflows.error,
    /** `POST /credentials/{id}/test`: re-tests now and records the status and account label. */
    test: (credentialId: string) => client.credentials.test(credentialId).finally(refresh),
    /** Reconnects an OAuth account in place (same id): call synchronously from a click handler. */
    reconnect: (c: Credential) =>
      connect.oauth(c.connector, { credentialId: c.credentialId }).finally(refresh),
    rename: (credentialId: string, label: string) =>
      client.credentials.rename(credentialId, { label }).finally(refresh),
    /** Disconnects: `DELETE /credentials/{id}?detach=true` (confirm first: the workflows using it stop working). */
    disconnect: (credentialId: string) =>
      client.credentials.delete(credentialId, { detach: true }).finally(refresh),
    pending: connect.pending,
    /** Refetches credentials, workflows and installations (after a change made elsewhere). */
    refresh,
  };
}
