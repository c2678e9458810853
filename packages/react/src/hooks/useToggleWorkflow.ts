import type { InlayError } from '@inlay/client';
import { inlayKeys, type Workflow } from '@inlay/client';
import { useMutation } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

export interface ToggleVariables {
  workflowId: string;
  active: boolean;
}

/** Enables or disables an installed workflow, optimistically. Emits `toggled`. */
export function useToggleWorkflow() {
  const { client, queryClient, emit } = useInlay();
  const key = inlayKeys.workflows(client.baseUrl);
  return useMutation<unknown, InlayError, ToggleVariables, { before?: Workflow[] }>(
    {
      mutationFn: ({ workflowId, active }) =>
        client.workflows[active ? 'activate' : 'deactivate']({ workflowId }),
      onMutate: async ({ workflowId, active }) => {
        await queryClient.cancelQueries({ queryKey: key, exact: true });
        const before = queryClient.getQueryData<Workflow[]>(key);
        queryClient.setQueryData<Workflow[]>(key, (list) =>
          list?.map((w) => (w.workflowId === workflowId ? { ...w, active } : w)),
        );
        return { before };
      },
      onError: (error, _v, c) => {
        if (c?.before) queryClient.setQueryData(key, c.before);
        emit({ type: 'error', action: 'toggle', error });
      },
      onSuccess: (_r, v) => emit({ type: 'toggled', workflowId: v.workflowId, active: v.active }),
      // Not awaited: the switch is usable again as soon as the service has answered, not after the refetch.
      onSettled: () => {
        void queryClient.invalidateQueries({ queryKey: key });
      },
    },
    queryClient,
  );
}
