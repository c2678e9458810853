import type { InlayError } from '@inlay/client';
import { type CreateInstallationBody, type Installation, inlayKeys } from '@inlay/client';
import { useMutation } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

export interface InstallVariables {
  workflowId: string;
  /** Set to edit an existing installation (PATCH) instead of creating one. */
  installationId?: string | null;
  credentialIds: Record<string, string>;
  values: NonNullable<CreateInstallationBody['values']>;
}

/** Installs a workflow (`POST /installations`) or edits its installation (`PATCH`). Emits `installed`. */
export function useInstall() {
  const { client, queryClient, emit } = useInlay();
  return useMutation<Installation, InlayError, InstallVariables>(
    {
      mutationFn: ({ workflowId, installationId, credentialIds, values }) =>
        installationId
          ? client.installations.update(installationId, { credentialIds, values })
          : client.installations.create({ workflowIds: [workflowId], credentialIds, values }),
      onSuccess: (inst, v) => {
        emit({
          type: 'installed',
          workflowId: v.workflowId,
          installationId: inst.installationId,
          updated: !!v.installationId,
        });
        return queryClient.invalidateQueries({ queryKey: inlayKeys.all(client.baseUrl) });
      },
      onError: (error) => emit({ type: 'error', action: 'install', error }),
    },
    queryClient,
  );
}
