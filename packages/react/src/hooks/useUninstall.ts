import type { InlayError } from '@inlay/client';
import { inlayKeys } from '@inlay/client';
import { useMutation } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

export interface UninstallVariables {
  installationId: string;
  workflowId: string;
  /** Also delete the credentials the installation used. */
  deleteCredentials?: boolean;
}

/** Uninstalls (`DELETE /installations/{id}`). Emits `uninstalled`. */
export function useUninstall() {
  const { client, queryClient, emit } = useInlay();
  return useMutation<unknown, InlayError, UninstallVariables>(
    {
      mutationFn: ({ installationId, deleteCredentials }) =>
        client.installations.delete(installationId, deleteCredentials ? { deleteCredentials } : {}),
      onSuccess: (_r, v) => {
        emit({ type: 'uninstalled', workflowId: v.workflowId, installationId: v.installationId });
        return queryClient.invalidateQueries({ queryKey: inlayKeys.all(client.baseUrl) });
      },
      onError: (error) => emit({ type: 'error', action: 'uninstall', error }),
    },
    queryClient,
  );
}
