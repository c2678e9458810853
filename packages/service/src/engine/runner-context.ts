import type { AppContext } from '../context.ts';

/**
 * What running a workflow or an action needs of the service: the database, its settings, connectors,
 * credentials, the metrics and the provider-call log.
 */
export type RunnerContext = Pick<
  AppContext,
  'db' | 'config' | 'connectors' | 'credentials' | 'metrics' | 'providerCalls'
>;
