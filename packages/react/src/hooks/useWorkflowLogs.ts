import { inlayQueries, type LogEntry, type LogsParams } from '@inlay/client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { INLAY_REFRESH_EVENT } from '../refreshInlay.ts';
import { useInlay } from './useInlay.ts';

/** How often a page is fetched again while it shows a queued or running run, and just after mount. */
export const LIVE_POLL_MS = 2_000;
/**
 * A run the backend starts as the page opens (the user clicked "Sync now" in the host app) shows without a
 * click: the page polls this long after mount, then only while a run on it is still in flight.
 */
export const POLL_AFTER_MOUNT_MS = 15_000;

const inFlight = (entries: LogEntry[] | undefined) =>
  entries?.some((e) => e.status === 'queued' || e.status === 'running') === true;

/**
 * One page of a workflow's run history: `page` (1-based), `limit` (1..30), `order` (`desc` by default). Live:
 * it polls while a run on the page is queued or running and briefly after mount, and fetches again on
 * `refreshInlay()` (the `inlay:refresh` window event). Polling pauses while the tab is hidden.
 */
export function useWorkflowLogs(
  workflowId: string,
  params: Omit<LogsParams, 'userId'> = {},
  /** `live: false` turns polling off; `refreshInlay()` and `refetch()` still fetch. */
  options: { live?: boolean } = {},
) {
  const live = options.live ?? true;
  const { client, queryClient } = useInlay();
  const limit = Math.min(30, Math.max(1, params.limit ?? 10));
  const [mountedAt] = useState(() => Date.now());
  const query = useQuery(
    {
      ...inlayQueries.logs(client, workflowId, { ...params, limit }),
      placeholderData: keepPreviousData,
      refetchInterval: (q) =>
        live && (inFlight(q.state.data) || Date.now() - mountedAt < POLL_AFTER_MOUNT_MS)
          ? LIVE_POLL_MS
          : false,
    },
    queryClient,
  );
  const { refetch } = query;
  useEffect(() => {
    const onRefresh = () => void refetch();
    window.addEventListener(INLAY_REFRESH_EVENT, onRefresh);
    return () => window.removeEventListener(INLAY_REFRESH_EVENT, onRefresh);
  }, [refetch]);
  return query;
}
