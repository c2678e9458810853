import { inlayQueries } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** One workflow, with its config fields and the user's `installationId`. */
export function useWorkflow(workflowId: string | undefined) {
  const { client, queryClient } = useInlay();
  return useQuery({ ...inlayQueries.workflow(client, workflowId ?? ''), enabled: !!workflowId }, queryClient);
}
