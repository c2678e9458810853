/** The DOM event that makes every mounted run history fetch again (`window.dispatchEvent(new Event(…))`). */
export const INLAY_REFRESH_EVENT = 'inlay:refresh';

/**
 * Tells the widget that something changed on the backend (you fired an event, a run started): every mounted
 * `<ExecutionLogs>` and `useWorkflowLogs` fetches its page again. Safe to call during SSR (does nothing).
 */
export function refreshInlay(): void {
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(INLAY_REFRESH_EVENT));
}
