import { z } from 'zod';

/** API versions this build serves; the first is the current one. */
export const API_VERSIONS = ['2025-09'] as const;
export type ApiVersion = (typeof API_VERSIONS)[number];
export const CURRENT_API_VERSION: ApiVersion = API_VERSIONS[0];

/** Size limits shared by every request schema: every array and string has a maximum size. */
export const LIMITS = {
  name: 255,
  text: 2_000,
  id: 255,
  url: 2_048,
  array: 100,
  steps: 50,
  /** Steps of a definition, nested ones included. */
  nestedSteps: 200,
  configFields: 100,
  fieldValue: 10_000,
  logPageMax: 30,
} as const;

/** The files `GET /docs` loads from the service itself (Swagger UI and its start-up script). */
export const DOCS_ASSETS = ['swagger-ui-bundle.js', 'swagger-ui.css', 'init.js'] as const;
export type DocsAsset = (typeof DOCS_ASSETS)[number];

export const Uuid = z.uuid();

/** The query parameter that asks for the page after a keyset page (the previous page's `nextCursor`). */
export const CursorQuery = z
  .string()
  .max(200)
  .optional()
  .meta({ description: 'The `nextCursor` of the previous page' });

/** A keyset page of `item`s, newest first, with the cursor to the next (older) one. */
export const keysetPage = <T extends z.ZodType>(item: T, id: string) =>
  z
    .object({
      data: z.array(item),
      nextCursor: z
        .string()
        .optional()
        .meta({ description: 'Pass as `cursor` for the next (older) page; absent on the last page' }),
    })
    .meta({ id });
export const IsoDateTime = z.iso.datetime({ precision: 3 }).meta({
  description: 'ISO 8601 UTC timestamp with milliseconds',
  example: '2025-09-01T12:00:00.000Z',
});
export const Name = z.string().trim().min(1).max(LIMITS.name);
export const Text = z.string().max(LIMITS.text);
/** A user id (UUID) or a username, as the seed accepts everywhere a user is named. */
export const UserRef = z.string().trim().min(1).max(LIMITS.id).meta({ description: 'User id or username' });
/**
 * An integer query parameter between `min` and `max` (default `dflt`). Query strings are text, so it parses
 * the text itself; the OpenAPI document shows the integer it stands for.
 */
export const intQuery = (name: string, min: number, max: number, dflt: number) =>
  z
    .string()
    .optional()
    .transform((v, ctx) => {
      const n = v === undefined || v === '' ? dflt : /^\d+$/.test(v) ? Number(v) : Number.NaN;
      if (Number.isInteger(n) && n >= min && n <= max) return n;
      const message = `${name} must be an integer between ${min} and ${max}`;
      // The issue codes name the rule that failed (`type`, `min`, `max` in the problem body).
      if (Number.isNaN(n)) ctx.addIssue({ code: 'invalid_type', expected: 'int', input: v, message });
      else if (n < min) ctx.addIssue({ code: 'too_small', origin: 'int', minimum: min, input: n, message });
      else ctx.addIssue({ code: 'too_big', origin: 'int', maximum: max, input: n, message });
      return z.NEVER;
    })
    .meta({ override: { type: 'integer', minimum: min, maximum: max, default: dflt } });

export const JsonObject = z.record(z.string(), z.unknown());

export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });
export type MessageResponse = z.infer<typeof MessageResponse>;

export const dataOf = <T extends z.ZodType>(item: T) => z.object({ data: item });
export const listOf = <T extends z.ZodType>(item: T) => z.object({ data: z.array(item) });
