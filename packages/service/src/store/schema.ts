import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { precision: 3, withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/**
 * What an app trigger keeps per installed workflow: the ids it has seen (newest last, bounded), the
 * high-water mark (an ISO time or a position such as a row number), whether the first poll recorded its
 * baseline, consecutive failures, the claim of a poll in flight, and a webhook subscription (secrets sealed).
 */
export interface AppTriggerState {
  baseline?: boolean;
  seen?: string[];
  highWater?: string | number;
  failures?: number;
  lastError?: string;
  failingSince?: string;
  /** Token of the poll that claimed the row; a poll whose token was replaced (it overran its claim) commits nothing. */
  claim?: string;
  /** Sealed secret of the trigger URL Inlay gave the provider. */
  hookSecret?: string;
  subscription?: { id: string; secret: string };
}

export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  /**
   * Origins (`scheme://host[:port]`) the account's pages live on: the only places an OAuth flow may
   * redirect to or post its result to. Set with `PUT /settings` or `inlay settings allowed-origins`.
   */
  allowedOrigins: jsonb('allowed_origins').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
  /**
   * Days the account's runs are kept (`PUT /settings {logRetentionDays}`), at most the service's
   * `INLAY_LOG_RETENTION_DAYS`; null follows the service's.
   */
  logRetentionDays: integer('log_retention_days'),
  createdAt: createdAt(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** SHA-256 of the whole key, hex. The key itself is never stored. */
    hash: text('hash').notNull(),
    /** `inlay_live_abcd…`: enough to recognise a key in a list, useless to an attacker. */
    prefix: text('prefix').notNull(),
    mode: text('mode', { enum: ['live', 'test'] }).notNull(),
    /** A label the account gave the key (`POST /api-keys`). */
    name: text('name'),
    createdAt: createdAt(),
    revokedAt: ts('revoked_at'),
    /** Written at most once a minute per key and node, so authentication stays a read. */
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_account_idx').on(t.accountId)],
);

/** Console sign-ins: an API key traded for an httpOnly cookie; the cookie's token is stored only hashed. */
export const consoleSessions = pgTable(
  'console_sessions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** The key signed in with: revoking it ends the session. */
    apiKeyId: uuid('api_key_id')
      .notNull()
      .references(() => apiKeys.id, { onDelete: 'cascade' }),
    /** SHA-256 of the cookie's token, hex. */
    hash: text('hash').notNull(),
    /** Sent back as `x-inlay-csrf` on writes; readable only by the console's own origin. */
    csrfToken: text('csrf_token').notNull(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('console_sessions_hash_idx').on(t.hash)],
);

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    username: text('username').notNull(),
    fullName: text('full_name'),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_account_username_idx').on(t.accountId, t.username)],
);

/** Ed25519 keys that sign user JWTs; the private half is sealed by the vault. */
export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  publicJwk: jsonb('public_jwk').notNull(),
  privateJwkSealed: text('private_jwk_sealed').notNull(),
  createdAt: createdAt(),
  /** When set, the key no longer signs; it stays in the JWKS until tokens it signed have expired. */
  retiredAt: ts('retired_at'),
});

export const integrations = pgTable(
  'integrations',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    connector: text('connector'),
    createdAt: createdAt(),
  },
  (t) => [index('integrations_account_idx').on(t.accountId)],
);

export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    currentVersion: integer('current_version').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('workflows_account_idx').on(t.accountId, t.createdAt)],
);

export const workflowVersions = pgTable(
  'workflow_versions',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').notNull(),
    /** The definition's JSON text as it was sent, served back as typed (`jsonb` reorders keys); null for older versions. */
    definitionText: text('definition_text'),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.version] })],
);

export const credentials = pgTable(
  'credentials',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    connector: text('connector').notNull(),
    name: text('name').notNull(),
    type: text('type', { enum: ['oauth2', 'apiKey', 'basic', 'none'] }).notNull(),
    status: text('status', { enum: ['pending', 'connected', 'needs_reconnect', 'failed'] }).notNull(),
    statusReason: text('status_reason'),
    statusChangedAt: ts('status_changed_at').notNull().defaultNow(),
    /** The provider account (workspace, login, email) the connector's test request reported. */
    accountLabel: text('account_label'),
    /** Vault envelope (key id + AES-256-GCM); null while an OAuth connection is pending. */
    sealed: text('sealed'),
    keyId: text('key_id'),
    /** When the OAuth access token expires, to refresh ahead of time. */
    expiresAt: ts('expires_at'),
    /**
     * Origins a bound credential (`http`) may be sent to, fixed at creation and shown in the API. The copy
     * sealed with the secrets is the one enforced, so editing this column changes nothing that is sent.
     */
    allowedOrigins: jsonb('allowed_origins').$type<string[]>(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('credentials_user_idx').on(t.userId, t.connector),
    index('credentials_key_idx').on(t.keyId),
    // GET /account/credentials?status=needs_reconnect: the Overview's connections to repair, newest first.
    index('credentials_account_status_idx').on(t.accountId, t.status, t.statusChangedAt),
  ],
);

export const oauthApps = pgTable(
  'oauth_apps',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    connector: text('connector').notNull(),
    clientId: text('client_id').notNull(),
    clientSecretSealed: text('client_secret_sealed').notNull(),
    keyId: text('key_id').notNull(),
    scopes: jsonb('scopes').$type<string[]>().notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.connector] })],
);

export const oauthStates = pgTable(
  'oauth_states',
  {
    /** SHA-256 of the `state` parameter. */
    stateHash: text('state_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    credentialId: uuid('credential_id')
      .notNull()
      .references(() => credentials.id, { onDelete: 'cascade' }),
    /** Sealed PKCE verifier and settings. */
    sealed: text('sealed').notNull(),
    keyId: text('key_id').notNull(),
    redirectUri: text('redirect_uri'),
    popup: boolean('popup').notNull().default(true),
    origin: text('origin'),
    /** SHA-256 of the single-use start link's token (`GET /oauth/start?flow=`). */
    startHash: text('start_hash'),
    /** When the start link was opened; it works once. */
    startedAt: ts('started_at'),
    /** SHA-256 of the nonce in the cookie the start link set: the callback must come from that browser. */
    browserHash: text('browser_hash'),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('oauth_states_expires_idx').on(t.expiresAt),
    uniqueIndex('oauth_states_start_idx').on(t.startHash),
  ],
);

export const installations = pgTable(
  'installations',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    integrationId: uuid('integration_id')
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    credentialIds: jsonb('credential_ids').$type<Record<string, string>>().notNull(),
    /** The seed's `formData`: per workflow step, its fields with the values given. */
    formData: jsonb('form_data').notNull(),
    /** The webhook URL's secret, sealed by the vault so the URL can be shown again; null without webhook workflows. */
    webhookSecretSealed: text('webhook_secret_sealed'),
    installedAt: ts('installed_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [index('installations_account_user_idx').on(t.accountId, t.userId)],
);

/** A user's copy of a workflow: installed at a version, active or not. */
export const userWorkflows = pgTable(
  'user_workflows',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    installationId: uuid('installation_id')
      .notNull()
      .references(() => installations.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    active: boolean('active').notNull().default(true),
    /** Denormalised from the definition so event fan-out and the scheduler need no JSON scan. */
    triggerType: text('trigger_type', { enum: ['manual', 'event', 'webhook', 'schedule', 'app'] }).notNull(),
    event: text('event'),
    cron: text('cron'),
    timezone: text('timezone'),
    nextRunAt: ts('next_run_at'),
    /** An app trigger's dedupe memory, failures and subscription (see engine/app-triggers). */
    triggerState: jsonb('trigger_state').$type<AppTriggerState>(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.workflowId] }),
    index('user_workflows_event_idx')
      .on(t.userId, t.event)
      .where(sql`${t.active} and ${t.triggerType} = 'event'`),
    index('user_workflows_schedule_idx')
      .on(t.nextRunAt)
      .where(sql`${t.active} and ${t.triggerType} = 'schedule'`),
    index('user_workflows_app_trigger_idx')
      .on(t.nextRunAt)
      .where(sql`${t.active} and ${t.triggerType} = 'app'`),
    index('user_workflows_installation_idx').on(t.installationId),
    index('user_workflows_workflow_idx').on(t.workflowId),
  ],
);

export const executions = pgTable(
  'executions',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    workflowId: uuid('workflow_id').notNull(),
    installationId: uuid('installation_id'),
    version: integer('version').notNull(),
    status: text('status', { enum: ['queued', 'running', 'succeeded', 'failed'] }).notNull(),
    finished: boolean('finished').notNull().default(false),
    /** What the run started with: the `data` of /run/*, a webhook body, a schedule tick. */
    trigger: jsonb('trigger').notNull(),
    triggerType: text('trigger_type').notNull(),
    /** The event name of an `event` run. */
    event: text('event'),
    /** The definition's `summary` over the trigger data, evaluated when the run is created. */
    summary: text('summary'),
    error: jsonb('error'),
    rerunOf: uuid('rerun_of'),
    attempts: integer('attempts').notNull().default(0),
    /** Set while a worker holds the run; a stale lease means the worker died. */
    leaseUntil: ts('lease_until'),
    startedAt: ts('started_at').notNull(),
    stoppedAt: ts('stopped_at'),
    createdAt: createdAt(),
  },
  (t) => [
    // A log page is (user, workflow) ordered by start: the index keeps it flat as history grows.
    index('executions_logs_idx').on(t.userId, t.workflowId, t.startedAt, t.id),
    // The account-wide explorer and the stats: keyset pages by (startedAt, id) and time-window aggregates.
    index('executions_account_started_idx').on(t.accountId, t.startedAt, t.id),
    index('executions_account_status_idx').on(t.accountId, t.status, t.startedAt, t.id),
    index('executions_user_started_idx').on(t.userId, t.startedAt, t.id),
    index('executions_pending_idx').on(t.status).where(sql`${t.status} in ('queued', 'running')`),
    // A log entry lists the runs that re-ran it: few rows have `rerun_of`, so the index stays small.
    index('executions_rerun_of_idx').on(t.rerunOf).where(sql`${t.rerunOf} is not null`),
  ],
);

export const executionSteps = pgTable(
  'execution_steps',
  {
    executionId: uuid('execution_id')
      .notNull()
      .references(() => executions.id, { onDelete: 'cascade' }),
    position: integer('position').notNull(),
    userId: uuid('user_id').notNull(),
    stepId: text('step_id').notNull(),
    /** The step's `name` in the definition that ran, when it has one. */
    name: text('name'),
    connector: text('connector').notNull(),
    connectorId: uuid('connector_id').notNull(),
    action: text('action').notNull(),
    status: text('status', { enum: ['succeeded', 'failed'] }).notNull(),
    input: jsonb('input'),
    /** The seed's `data`: `[[{id, json, statusCode?}]]`. */
    data: jsonb('data').notNull(),
    error: jsonb('error'),
    attempts: integer('attempts').notNull().default(1),
    truncated: boolean('truncated').notNull().default(false),
    startedAt: ts('started_at').notNull(),
    stoppedAt: ts('stopped_at'),
    /** Which occurrence of the step: its id, then `:` and the iteration path inside `forEach` (e.g. `<id>:2.0`). */
    stepKey: text('step_key'),
    /** The iteration of the innermost enclosing `forEach`, for a step inside one. */
    iteration: integer('iteration'),
    /** The enclosing `if` or `forEach` step, for a nested step. */
    parentStepId: text('parent_step_id'),
    /** The branch an `if` step took. */
    branch: text('branch', { enum: ['then', 'else'] }),
    /** What later steps see of the output, when `data` cannot give it back exactly (a resumed run reads it). */
    output: jsonb('output'),
  },
  (t) => [
    primaryKey({ columns: [t.executionId, t.position] }),
    index('execution_steps_user_idx').on(t.userId),
  ],
);

export const mcpServers = pgTable(
  'mcp_servers',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    restrictions: jsonb('restrictions').notNull(),
    /** SHA-256 of the access token. */
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('mcp_servers_account_idx').on(t.accountId)],
);

/** Where an account's outbound webhooks go (Standard Webhooks), and which events each one wants. */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    /** The signing secret (`whsec_…`), sealed: it is needed again to sign every delivery. */
    secretSealed: text('secret_sealed').notNull(),
    keyId: text('key_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('webhook_endpoints_account_idx').on(t.accountId)],
);

/** One event for one endpoint: queued, retried with backoff, delivered or given up on after 24 hours. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    /** Also the `webhook-id` header: the same on every attempt, so receivers can drop duplicates. */
    id: text('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    endpointId: uuid('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id').notNull(),
    event: text('event').notNull(),
    payload: jsonb('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: ts('next_attempt_at').notNull().defaultNow(),
    /** A node sending it holds it until then; another node may take it over after. */
    leaseUntil: ts('lease_until'),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    createdAt: createdAt(),
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.seq),
    index('webhook_deliveries_pending_idx').on(t.nextAttemptAt).where(sql`${t.status} = 'pending'`),
    // `GET /webhook-deliveries`: the account's newest deliveries, and the failing ones (the console's Overview).
    index('webhook_deliveries_account_idx').on(t.accountId, t.seq),
    index('webhook_deliveries_failing_idx')
      .on(t.accountId, t.seq)
      .where(sql`${t.status} = 'failed' or (${t.status} = 'pending' and ${t.attempts} > 0)`),
    // Retention: an account's settled deliveries older than its retention, oldest first.
    index('webhook_deliveries_settled_idx')
      .on(t.accountId, t.createdAt)
      .where(sql`${t.status} in ('delivered', 'failed')`),
  ],
);

/**
 * An account's own connector (`POST /connectors`): its current declarative definition. `id` is random and also
 * keys its public icon URL; `slug` is the connector id workflows name, unique in the account.
 */
export const customConnectors = pgTable(
  'custom_connectors',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    version: integer('version').notNull(),
    /** The validated `DeclarativeConnector`, its icon already sanitised. */
    definition: jsonb('definition').notNull(),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('custom_connectors_account_slug_idx').on(t.accountId, t.slug)],
);

/** Every published version of a custom connector, kept for the record (runs use the current one). */
export const customConnectorVersions = pgTable(
  'custom_connector_versions',
  {
    connectorId: uuid('connector_id')
      .notNull()
      .references(() => customConnectors.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    definition: jsonb('definition').notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.connectorId, t.version] })],
);

/**
 * Proxy calls per account and connector, every node's together (`GET /stats/proxy`). A proxy call writes
 * nothing itself: each node counts in memory and adds its counts here in one statement about once a second.
 */
export const proxyCounts = pgTable(
  'proxy_counts',
  {
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    connector: text('connector').notNull(),
    requests: bigint('requests', { mode: 'number' }).notNull().default(0),
    errors: bigint('errors', { mode: 'number' }).notNull().default(0),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.connector] })],
);

/**
 * Every call Inlay made to a provider for an account: steps, proxy calls, app-trigger polls, option lists and
 * connection tests. What was called and how it went, never headers or bodies; purged with the account's runs.
 */
export const providerCalls = pgTable(
  'provider_calls',
  {
    id: uuid('id').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    // No foreign key: a removed connection's calls stay in the log until the retention takes them.
    credentialId: uuid('credential_id'),
    connector: text('connector').notNull(),
    kind: text('kind', {
      enum: ['step', 'proxy', 'poll', 'options', 'test', 'oauth', 'subscription'],
    }).notNull(),
    method: text('method').notNull(),
    route: text('route').notNull(),
    status: integer('status'),
    durationMs: integer('duration_ms').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull().default(0),
    executionId: uuid('execution_id'),
    at: ts('at').notNull().defaultNow(),
  },
  (t) => [
    index('provider_calls_account_at_idx').on(t.accountId, t.at, t.id),
    index('provider_calls_user_at_idx').on(t.userId, t.at, t.id),
    index('provider_calls_credential_at_idx').on(t.credentialId, t.at, t.id),
  ],
);

export const schema = {
  accounts,
  providerCalls,
  apiKeys,
  consoleSessions,
  users,
  signingKeys,
  integrations,
  workflows,
  workflowVersions,
  credentials,
  oauthApps,
  oauthStates,
  installations,
  userWorkflows,
  executions,
  executionSteps,
  mcpServers,
  webhookEndpoints,
  webhookDeliveries,
  customConnectors,
  customConnectorVersions,
  proxyCounts,
};
