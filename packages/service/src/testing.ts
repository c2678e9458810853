/**
 * Internals the private test kit (@inlay/test-kit) reads to arrange and inspect a service's database: the store's
 * tables, its `Db` type, and the helpers that seal rows as the service does. Not a supported API: it changes with
 * the schema, without notice.
 */
export { webhookAad } from './installations/installations.ts';
export * from './store/schema.ts';
export type { Db } from './store/store.ts';
export { loadOrCreateSigningKey } from './tokens/signing-keys.ts';
