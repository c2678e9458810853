import type { credentials } from '../store/schema.ts';

/** A row of `credentials` as the store reads it: sealed secrets, status, labels. */
export type CredentialRow = typeof credentials.$inferSelect;
