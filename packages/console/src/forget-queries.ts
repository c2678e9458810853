import type { QueryClient, QueryKey } from '@tanstack/react-query';

/**
 * Drops the cached queries under `queryKey` once nothing observes them: at once for those no mounted component
 * reads, and for the others when their last observer goes (the page being left). Removing a query a mounted
 * component still observes would make its next render build the query afresh and fetch it: after a delete, a
 * request for what was just deleted (a 404 in the browser's console) if that render comes before the page is left.
 */
export function forgetQueries(qc: QueryClient, queryKey: QueryKey): void {
  const cache = qc.getQueryCache();
  const dropUnobserved = () => {
    let left = 0;
    for (const q of cache.findAll({ queryKey })) {
      if (q.getObserversCount() === 0) cache.remove(q);
      else left++;
    }
    return left;
  };
  if (dropUnobserved() === 0) return;
  const unsubscribe = cache.subscribe((event) => {
    if (event.type === 'observerRemoved' && dropUnobserved() === 0) unsubscribe();
  });
}
