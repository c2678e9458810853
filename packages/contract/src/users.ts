import { z } from 'zod';
import { IsoDateTime, intQuery, LIMITS, Uuid } from './common.ts';

export const Username = z
  .string()
  .trim()
  .min(1)
  .max(LIMITS.name)
  .regex(/^[^\s/?#]+$/, 'must not contain whitespace, "/", "?" or "#"');

export const User = z
  .object({
    userId: Uuid,
    username: z.string(),
    fullName: z.string().nullable(),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const CreateUserBody = z
  .object({ username: Username, fullName: z.string().trim().max(LIMITS.name).optional() })
  .strict()
  .meta({ id: 'CreateUserBody' });
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z
  .object({
    username: Username.optional(),
    fullName: z.string().trim().max(LIMITS.name).nullable().optional(),
  })
  .strict()
  .meta({ id: 'UpdateUserBody' });
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const CreateUserResponse = z.object({ userId: Uuid }).meta({ id: 'CreateUserResponse' });
export type CreateUserResponse = z.infer<typeof CreateUserResponse>;

/** `GET /users` paging: oldest first, `limit` per page; `search` narrows to matching users. */
export const UsersQuery = z.object({
  page: intQuery('page', 1, 1_000_000, 1),
  limit: intQuery('limit', 1, 1000, 100),
  search: z.string().trim().min(1).max(LIMITS.name).optional().meta({
    description:
      'Only users whose id is this UUID, or whose username or full name contains it (case-insensitive)',
  }),
});
