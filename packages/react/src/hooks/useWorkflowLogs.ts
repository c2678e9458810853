import { inlayQueries, type LogsParams } from '@inlay/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** One page of a workflow's run history: `page` (1-based), `limit` (1..30), `order` (`desc` by default). */
export function useWorkflowLogs(workflowId: string, params: Omit<LogsParams, 'userId'> = {}) {
  const { client, queryClient } = useInlay();
  const limit = Math.min(30, Math.max(1, params.limit ?? 10));
  return useQuery(
    { ...inlayQueries.logs(client, workflowId, { ...params, limit }), placeholderData: keepPreviousData },
    queryClient,
  );
}
