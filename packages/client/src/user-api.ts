import type {
  Connector,
  ConnectorAction,
  ConnectorCategory,
  CreateCredentialBody,
  CreateInstallationBody,
  CreateOAuthCredentialBody,
  Credential,
  ExecutionStatus,
  Installation,
  Integration,
  LogEntry,
  MessageResponse,
  OAuthStartResponse,
  OptionItem,
  ReplaceCredentialBody,
  RerunResponse,
  RunEventBody,
  RunResponse,
  RunWorkflowBody,
  ToggleWorkflowBody,
  UpdateCredentialBody,
  UpdateInstallationBody,
  User,
  Workflow,
} from '@inlay/contract';
import { type CallOptions, type Request, seg } from './transport.ts';

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
      get: (userId: string, o?: CallOptions) => unwrap(r<Data<User>>('GET', `/users/${seg(userId)}`, o)),
      /** `DELETE /users/{userId}/logs`: hard-deletes every execution of the user. Irreversible. */
      deleteLogs: (userId: string) => r<MessageResponse>('DELETE', `/users/${seg(userId)}/logs`),
    },
    integrations: {
      /** `GET /integrations` */
      list: (o?: CallOptions) => unwrap(r<Data<Integration[]>>('GET', '/integrations', o)),
    },
    workflows: {
      /** `GET /workflows`: every workflow of the account with `installed`/`active` for the user. */
      list: (q: UserScope & { integrationId?: string } = {}, o?: CallOptions) =>
        unwrap(r<Data<Workflow[]>>('GET', '/workflows', { ...o, query: q })),
      /** `GET /workflows/{workflowId}` */
      get: (workflowId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(r<Data<Workflow>>('GET', `/workflows/${seg(workflowId)}`, { ...o, query: q })),
      /** `GET /workflows/{workflowId}/logs` */
      logs: (workflowId: string, q: LogsParams = {}, o?: CallOptions) =>
        unwrap(r<Data<LogEntry[]>>('GET', `/workflows/${seg(workflowId)}/logs`, { ...o, query: q })),
      /** `GET /workflows/{workflowId}/logs/{executionId}`: one run. */
      log: (workflowId: string, executionId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(
          r<Data<LogEntry>>('GET', `/workflows/${seg(workflowId)}/logs/${seg(executionId)}`, {
            ...o,
            query: q,
          }),
        ),
      /** `PUT /workflows/activate` */
      activate: (body: ToggleWorkflowBody) => r<MessageResponse>('PUT', '/workflows/activate', { body }),
      /** `PUT /workflows/deactivate` */
      deactivate: (body: ToggleWorkflowBody) => r<MessageResponse>('PUT', '/workflows/deactivate', { body }),
      /** `POST /workflows/{workflowId}/rerun/{executionId}` */
      rerun: (workflowId: string, executionId: string, q: UserScope = {}) =>
        r<RerunResponse>('POST', `/workflows/${seg(workflowId)}/rerun/${seg(executionId)}`, { query: q }),
    },
    runs: {
      /** `POST /run/workflow` */
      workflow: (body: RunWorkflowBody) => r<RunResponse>('POST', '/run/workflow', { body }),
      /** `POST /run/event` */
      event: (body: RunEventBody) => r<RunResponse>('POST', '/run/event', { body }),
    },
    installations: {
      /** `GET /installations`; `attention: 'true'` keeps those that need an account or a reconnect. */
      list: (q: UserScope & { attention?: 'true' | 'false' } = {}, o?: CallOptions) =>
        unwrap(r<Data<Installation[]>>('GET', '/installations', { ...o, query: q })),
      /** `GET /installations/{installationId}` */
      get: (installationId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(r<Data<Installation>>('GET', `/installations/${seg(installationId)}`, { ...o, query: q })),
      /** `POST /installations` */
      create: (body: CreateInstallationBody) =>
        unwrap(r<Data<Installation>>('POST', '/installations', { body })),
      /** `PATCH /installations/{installationId}` */
      update: (installationId: string, body: UpdateInstallationBody) =>
        unwrap(r<Data<Installation>>('PATCH', `/installations/${seg(installationId)}`, { body })),
      /** `DELETE /installations/{installationId}`; credentials stay unless `deleteCredentials`. */
      delete: (installationId: string, q: UserScope & { deleteCredentials?: boolean } = {}) =>
        r<MessageResponse>('DELETE', `/installations/${seg(installationId)}`, { query: q }),
    },
    connectors: {
      /** `GET /connectors` */
      list: (q: { category?: ConnectorCategory } = {}, o?: CallOptions) =>
        unwrap(r<Data<Connector[]>>('GET', '/connectors', { ...o, query: q })),
      /** `GET /connectors/{connector}/actions` */
      actions: (connector: string, o?: CallOptions) =>
        unwrap(r<Data<ConnectorAction[]>>('GET', `/connectors/${seg(connector)}/actions`, o)),
      /** `GET /connectors/{connector}/icon.svg`: the SVG markup (public; `<img>` can use the URL directly). */
      icon: (connector: string, o?: CallOptions) =>
        r<string>('GET', `/connectors/${seg(connector)}/icon.svg`, o),
      /** `GET /connectors/{connector}/options/{source}`: dynamic options from the provider. */
      options: (
        connector: string,
        source: string,
        q: UserScope & { credentialId?: string; search?: string } = {},
        o?: CallOptions,
      ) =>
        unwrap(
          r<Data<OptionItem[]>>('GET', `/connectors/${seg(connector)}/options/${seg(source)}`, {
            ...o,
            query: q,
          }),
        ),
    },
    credentials: {
      /** `GET /credentials` (never the secret) */
      list: (q: UserScope & { connector?: string } = {}, o?: CallOptions) =>
        unwrap(r<Data<Credential[]>>('GET', '/credentials', { ...o, query: q })),
      /** `GET /credentials/{credentialId}`: poll it while an OAuth connection is `pending`. */
      get: (credentialId: string, q: UserScope = {}, o?: CallOptions) =>
        unwrap(r<Data<Credential>>('GET', `/credentials/${seg(credentialId)}`, { ...o, query: q })),
      /** `POST /credentials`: an API-key or basic credential, checked with the provider first. */
      create: (body: CreateCredentialBody) => unwrap(r<Data<Credential>>('POST', '/credentials', { body })),
      /** `POST /credentials/oauth` → `{credentialId, authorizeUrl}` */
      startOAuth: (body: CreateOAuthCredentialBody) =>
        r<OAuthStartResponse>('POST', '/credentials/oauth', { body }),
      /** `POST /credentials/{credentialId}/test`: re-tests now, records `status` and `accountLabel`. */
      test: (credentialId: string, q: UserScope = {}) =>
        unwrap(r<Data<Credential>>('POST', `/credentials/${seg(credentialId)}/test`, { query: q })),
      /** `PUT /credentials/{credentialId}`: new API-key or basic secrets, in place, once they pass the test. */
      replace: (credentialId: string, body: ReplaceCredentialBody) =>
        unwrap(r<Data<Credential>>('PUT', `/credentials/${seg(credentialId)}`, { body })),
      /** `PATCH /credentials/{credentialId}` `{label}`: renames. */
      rename: (credentialId: string, body: UpdateCredentialBody) =>
        unwrap(r<Data<Credential>>('PATCH', `/credentials/${seg(credentialId)}`, { body })),
      /**
       * `DELETE /credentials/{credentialId}`: a 409 names the installations using it unless `detach: true`
       * removes it from them.
       */
      delete: (credentialId: string, q: UserScope & { detach?: boolean } = {}) =>
        r<MessageResponse>('DELETE', `/credentials/${seg(credentialId)}`, {
          query: { ...q, ...(q.detach !== undefined ? { detach: String(q.detach) } : {}) },
        }),
    },
  };
}

export type UserRoutes = ReturnType<typeof userRoutes>;
