import type {
  ConnectorCategory,
  CreateCredentialBody,
  CreateInstallationBody,
  CreateOAuthCredentialBody,
  ExecutionStatus,
  ReplaceCredentialBody,
  RunEventBody,
  RunWorkflowBody,
  ToggleWorkflowBody,
  UpdateCredentialBody,
  UpdateInstallationBody,
} from '@inlay/contract';
import { call } from './call.ts';
import type { CallOptions, Request } from './transport.ts';

/** `userId` names the user with an API key; with a user token it may be left out (the token names the user). */
export interface UserScope {
  userId?: string;
}

export interface LogsParams extends UserScope {
  /** 1-based page; 1 by default. */
  page?: number;
  /** 1..30; 10 by default. */
  limit?: number;
  /** By `startedAt`; `desc` by default. */
  order?: 'asc' | 'desc';
  /** Only runs in these states (sent as `status=a,b`); every run by default. */
  status?: ExecutionStatus | readonly ExecutionStatus[];
}

type Data<T> = { data: T };
const unwrap = <T>(p: Promise<Data<T>>) => p.then((r) => r.data);

/** Routes a user token may call. Lists and single objects are unwrapped from `{data}`. */
export function userRoutes(r: Request) {
  return {
    users: {
      /** `GET /users/{userId}` */
      get: (userId: string, o?: CallOptions) =>
        unwrap(call(r, 'GET /users/{userId}', { params: { userId }, ...o })),
      /** `DELETE /users/{userId}/logs`: hard-deletes every execution of the user. Irreversible. */
      deleteLogs: (userId: string) => call(r, 'DELETE /users/{userId}/logs', { params: { userId } }),
    },
    integrations: {
      /** `GET /integrations` */
      list: (o?: CallOptions) => unwrap(call(r, 'GET /integrations', o)),
    },
    workflows: {
      /** `GET /workflows`: every workflow of the account with `installed`/`active` for the user. */
      list: (q: UserScope & { integrationId?: string } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /workflows', { ...o, query: q })),
      /** `GET /workflows/{workflowId}` */
      get: (workflowId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /workflows/{workflowId}', { params: { workflowId }, ...o, query: q })),
      /** `GET /workflows/{workflowId}/logs` */
      logs: (workflowId: string, q: LogsParams = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /workflows/{workflowId}/logs', { params: { workflowId }, ...o, query: q })),
      /** `GET /workflows/{workflowId}/logs/{executionId}`: one run. */
      log: (workflowId: string, executionId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(
          call(r, 'GET /workflows/{workflowId}/logs/{executionId}', {
            params: { workflowId, executionId },
            ...o,
            query: q,
          }),
        ),
      /** `PUT /workflows/activate` */
      activate: (body: ToggleWorkflowBody) => call(r, 'PUT /workflows/activate', { body }),
      /** `PUT /workflows/deactivate` */
      deactivate: (body: ToggleWorkflowBody) => call(r, 'PUT /workflows/deactivate', { body }),
      /** `POST /workflows/{workflowId}/rerun/{executionId}` */
      rerun: (workflowId: string, executionId: string, q: UserScope = {}) =>
        call(r, 'POST /workflows/{workflowId}/rerun/{executionId}', {
          params: { workflowId, executionId },
          query: q,
        }),
    },
    runs: {
      /** `POST /run/workflow` */
      workflow: (body: RunWorkflowBody) => call(r, 'POST /run/workflow', { body }),
      /** `POST /run/event` */
      event: (body: RunEventBody) => call(r, 'POST /run/event', { body }),
    },
    installations: {
      /** `GET /installations`; `attention: 'true'` keeps those that need an account or a reconnect. */
      list: (q: UserScope & { attention?: 'true' | 'false' } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /installations', { ...o, query: q })),
      /** `GET /installations/{installationId}` */
      get: (installationId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(
          call(r, 'GET /installations/{installationId}', { params: { installationId }, ...o, query: q }),
        ),
      /** `POST /installations` */
      create: (body: CreateInstallationBody) => unwrap(call(r, 'POST /installations', { body })),
      /** `PATCH /installations/{installationId}` */
      update: (installationId: string, body: UpdateInstallationBody) =>
        unwrap(call(r, 'PATCH /installations/{installationId}', { params: { installationId }, body })),
      /** `DELETE /installations/{installationId}`; credentials stay unless `deleteCredentials`. */
      delete: (installationId: string, q: UserScope & { deleteCredentials?: boolean } = {}) =>
        call(r, 'DELETE /installations/{installationId}', { params: { installationId }, query: q }),
    },
    connectors: {
      /** `GET /connectors` */
      list: (q: { category?: ConnectorCategory } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /connectors', { ...o, query: q })),
      /** `GET /connectors/{connector}/actions` */
      actions: (connector: string, o?: CallOptions) =>
        unwrap(call(r, 'GET /connectors/{connector}/actions', { params: { connector }, ...o })),
      /** `GET /connectors/{connector}/icon.svg`: the SVG markup (public; `<img>` can use the URL directly). */
      icon: (connector: string, o?: CallOptions) =>
        call(r, 'GET /connectors/{connector}/icon.svg', { params: { connector }, ...o }),
      /** `GET /connectors/{connector}/options/{source}`: dynamic options from the provider. */
      options: (
        connector: string,
        source: string,
        q: UserScope & { credentialId?: string; search?: string } = {},
        o?: CallOptions,
      ) =>
        unwrap(
          call(r, 'GET /connectors/{connector}/options/{source}', {
            params: { connector, source },
            ...o,
            query: q,
          }),
        ),
    },
    credentials: {
      /** `GET /credentials` (never the secret) */
      list: (q: UserScope & { connector?: string } = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /credentials', { ...o, query: q })),
      /** `GET /credentials/{credentialId}`: poll it while an OAuth connection is `pending`. */
      get: (credentialId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(call(r, 'GET /credentials/{credentialId}', { params: { credentialId }, ...o, query: q })),
      /** `POST /credentials`: an API-key or basic credential, checked with the provider first. */
      create: (body: CreateCredentialBody) => unwrap(call(r, 'POST /credentials', { body })),
      /** `POST /credentials/oauth` → `{credentialId, authorizeUrl}` */
      startOAuth: (body: CreateOAuthCredentialBody) => call(r, 'POST /credentials/oauth', { body }),
      /** `POST /credentials/{credentialId}/test`: re-tests now, records `status` and `accountLabel`. */
      test: (credentialId: string, q: UserScope = {}) =>
        unwrap(call(r, 'POST /credentials/{credentialId}/test', { params: { credentialId }, query: q })),
      /** `PUT /credentials/{credentialId}`: new API-key or basic secrets, in place, once they pass the test. */
      replace: (credentialId: string, body: ReplaceCredentialBody) =>
        unwrap(call(r, 'PUT /credentials/{credentialId}', { params: { credentialId }, body })),
      /** `PATCH /credentials/{credentialId}` `{label}`: renames. */
      rename: (credentialId: string, body: UpdateCredentialBody) =>
        unwrap(call(r, 'PATCH /credentials/{credentialId}', { params: { credentialId }, body })),
      /**
       * `DELETE /credentials/{credentialId}`: a 409 names the installations using it unless `detach: true`
       * removes it from them.
       */
      delete: (credentialId: string, q: UserScope & { detach?: boolean } = {}) =>
        call(r, 'DELETE /credentials/{credentialId}', {
          params: { credentialId },
          query: { ...q, ...(q.detach !== undefined ? { detach: String(q.detach) } : {}) },
        }),
    },
  };
}

export type UserRoutes = ReturnType<typeof userRoutes>;
