import { inlayQueries } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** The connector catalog: slugs, categories, auth types and credential fields. */
export function useConnectors() {
  const { client, queryClient } = useInlay();
  return useQuery(inlayQueries.connectors(client), queryClient);
}
