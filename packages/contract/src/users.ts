import { z } from 'zod';
import { dataOf, IsoDateTime, intQuery, LIMITS, listOf, MessageResponse, Uuid } from './common.ts';
import { defineOperations, userPath, userQuery } from './operation.ts';
import { UserToken } from './tokens.ts';

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

/** The user operations of the REST API, keyed by operationId. */
export const userOperations = defineOperations({
  listUsers: {
    method: 'get',
    path: '/users',
    summary: 'List users, oldest first',
    tag: 'Users',
    auth: 'key',
    query: UsersQuery,
    ok: listOf(User),
    notFound: false,
  },
  createUser: {
    method: 'post',
    path: '/users',
    summary: 'Create a user',
    tag: 'Users',
    auth: 'key',
    body: CreateUserBody,
    ok: CreateUserResponse,
    status: '201',
    notFound: false,
    problems: { '409': 'A user with this username already exists in the account' },
  },
  getUser: {
    method: 'get',
    path: '/users/{userId}',
    summary: 'Get a user',
    tag: 'Users',
    auth: 'user',
    params: userPath,
    ok: dataOf(User),
  },
  updateUser: {
    method: 'put',
    path: '/users/{userId}',
    summary: 'Update a user',
    tag: 'Users',
    auth: 'key',
    params: userPath,
    body: UpdateUserBody,
    ok: dataOf(User),
    problems: { '409': 'A user with this username already exists in the account' },
  },
  deleteUser: {
    method: 'delete',
    path: '/users/{userId}',
    summary: 'Delete a user and all their data',
    tag: 'Users',
    auth: 'key',
    params: userPath,
    ok: MessageResponse,
  },
  getUserToken: {
    method: 'get',
    path: '/users/{userId}/token',
    summary: 'Mint a user JWT',
    tag: 'Users',
    auth: 'key',
    params: userPath,
    query: userQuery,
    ok: UserToken,
  },
  deleteUserLogs: {
    method: 'delete',
    path: '/users/{userId}/logs',
    summary: 'Hard-delete every execution of the user',
    tag: 'Users',
    auth: 'user',
    params: userPath,
    query: userQuery,
    ok: MessageResponse,
  },
});
