import { inlayQueries } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** Every workflow of the account, with `installed`/`active` for the signed-in user. */
export function useWorkflows() {
  const { client, queryClient } = useInlay();
  return useQuery(inlayQueries.workflows(client), queryClient);
}
