import { inlayQueries } from '@inlay/client';
import { useQuery } from '@tanstack/react-query';
import { useInlay } from './useInlay.ts';

/** Dynamic options of a config field, fetched from the provider with the user's credential. */
export function useOptions(connector: string | undefined, source: string | undefined, credentialId?: string) {
  const { client, queryClient } = useInlay();
  return useQuery(
    {
      ...inlayQueries.options(client, connector ?? '', source ?? '', credentialId),
      enabled: !!connector && !!source && !!credentialId,
      retry: false,
    },
    queryClient,
  );
}
