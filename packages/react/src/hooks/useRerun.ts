import type { InlayError } from '@inlay/client';
import { inlayKeys, type RerunResponse } from '@inlay/client';
import { useMutation } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

export interface RerunVariables {
  workflowId: string;
  executionId: string;
}

/** Re-runs an execution with its original trigger data; refreshes the workflow's logs. */
export function useRerun() {
  const { client, queryClient, emit } = useInlay();
  return useMutation<RerunResponse, InlayError, RerunVariables>(
    {
      mutationFn: ({ workflowId, executionId }) => client.workflows.rerun(workflowId, executionId),
      onSuccess: (_r, v) =>
        queryClient.invalidateQueries({ queryKey: inlayKeys.logs(client.baseUrl, v.workflowId) }),
      onError: (error) => emit({ type: 'error', action: 'rerun', error }),
    },
    queryClient,
  );
}
