import type { UserClient } from './user.ts';
import type { LogsParams } from './user-api.ts';

/**
 * Query keys for TanStack Query (any adapter), scoped by the client's base URL. Every key starts with
 * `['inlay', baseUrl]`, so `invalidateQueries({queryKey: inlayKeys.all(baseUrl)})` refreshes everything.
 */
export const inlayKeys = {
  all: (scope: string) => ['inlay', scope] as const,
  workflows: (scope: string) => ['inlay', scope, 'workflows'] as const,
  workflow: (scope: string, workflowId: string) => ['inlay', scope, 'workflows', workflowId] as const,
  logs: (scope: string, workflowId: string, params?: LogsParams) =>
    params
      ? (['inlay', scope, 'logs', workflowId, params] as const)
      : (['inlay', scope, 'logs', workflowId] as const),
  installations: (scope: string) => ['inlay', scope, 'installations'] as const,
  credentials: (scope: string, connector?: string) =>
    connector
      ? (['inlay', scope, 'credentials', connector] as const)
      : (['inlay', scope, 'credentials'] as const),
  connectors: (scope: string) => ['inlay', scope, 'connectors'] as const,
  options: (scope: string, connector: string, source: string, credentialId?: string) =>
    ['inlay', scope, 'options', connector, source, credentialId ?? null] as const,
};

type Fn = { signal?: AbortSignal };

/** Query option factories (`{queryKey, queryFn}`) usable with any TanStack Query adapter. */
export const inlayQueries = {
  workflows: (c: UserClient) => ({
    queryKey: inlayKeys.workflows(c.baseUrl),
    queryFn: ({ signal }: Fn) => c.workflows.list({}, { signal }),
  }),
  workflow: (c: UserClient, workflowId: string) => ({
    queryKey: inlayKeys.workflow(c.baseUrl, workflowId),
    queryFn: ({ signal }: Fn) => c.workflows.get(workflowId, {}, { signal }),
  }),
  logs: (c: UserClient, workflowId: string, params: LogsParams = {}) => ({
    queryKey: inlayKeys.logs(c.baseUrl, workflowId, params),
    queryFn: ({ signal }: Fn) => c.workflows.logs(workflowId, params, { signal }),
  }),
  installations: (c: UserClient) => ({
    queryKey: inlayKeys.installations(c.baseUrl),
    queryFn: ({ signal }: Fn) => c.installations.list({}, { signal }),
  }),
  credentials: (c: UserClient, connector?: string) => ({
    queryKey: inlayKeys.credentials(c.baseUrl, connector),
    queryFn: ({ signal }: Fn) => c.credentials.list({ connector }, { signal }),
  }),
  connectors: (c: UserClient) => ({
    queryKey: inlayKeys.connectors(c.baseUrl),
    queryFn: ({ signal }: Fn) => c.connectors.list({}, { signal }),
    staleTime: 3_600_000,
  }),
  options: (c: UserClient, connector: string, source: string, credentialId?: string) => ({
    queryKey: inlayKeys.options(c.baseUrl, connector, source, credentialId),
    queryFn: ({ signal }: Fn) => c.connectors.options(connector, source, { credentialId }, { signal }),
  }),
};
