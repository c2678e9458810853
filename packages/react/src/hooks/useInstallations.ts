import { inlayQueries } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** The signed-in user's installations. */
export function useInstallations() {
  const { client, queryClient } = useInlay();
  return useQuery(inlayQueries.installations(client), queryClient);
}
