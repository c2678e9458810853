import { inlayQueries } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** The signed-in user's credentials (never the secrets), optionally for one connector. */
export function useCredentials(connector?: string) {
  const { client, queryClient } = useInlay();
  return useQuery(inlayQueries.credentials(client, connector), queryClient);
}
