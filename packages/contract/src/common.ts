import { z } from 'zod';

/** API versions this build serves; the first is the current one. */
export const API_VERSIONS = ['2025-09'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[0];

/** Size limits shared by every request schema (issue 9: arrays and strings have maximum sizes). */
export const LIMITS = {
  name: 255,
  text: 2_000,
  id: 255,
  url: 2_048,
  array: 100,
  steps: 50,
  configFields: 100,
  fieldValue: 10_000,
  logPageMax: 30,
} as const;

export const Uuid = z.uuid();
export const IsoDateTime = z.iso.datetime({ precision: 3 }).meta({
  description: 'ISO 8601 UTC timestamp with milliseconds',
  example: '2025-09-01T12:00:00.000Z',
});
export const Name = z.string().trim().min(1).max(LIMITS.name);
export const Text = z.string().max(LIMITS.text);
/** A user id (UUID) or a username, as the seed accepts everywhere a user is named. */
export const UserRef = z.string().trim().min(1).max(LIMITS.id).meta({ description: 'User id or username' });
export const JsonObject = z.record(z.string(), z.unknown());

export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
