import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, navigate, usePath } from '../router.tsx';
import { useConsole } from '../session.tsx';
import { QueryState, Table } from '../table.tsx';
import { formatTime } from '../ui.tsx';

/** The account's users, searched by id, username or name (`GET /users?search=`). */
export function UsersPage() {
  const { client } = useConsole();
  const path = usePath();
  const search = new URLSearchParams(path.split('?')[1] ?? '').get('search') ?? '';
  const list = useQuery({
    queryKey: ['users', search],
    queryFn: () => client.users.list(search ? { search, limit: 100 } : { limit: 100 }),
  });
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const q = String(new FormData(e.currentTarget).get('search') ?? '').trim();
    navigate(q ? `/users?search=${encodeURIComponent(q)}` : '/users');
  };
  return (
    <>
      <h1>Users</h1>
      <form className="card row" onSubmit={onSubmit} aria-label="Search users" key={path}>
        <label>
          Id, username or name
          <input name="search" type="search" maxLength={255} defaultValue={search} />
        </label>
        <button type="submit">Search</button>
      </form>
      <QueryState query={list} empty={search ? 'No user matches.' : 'No users yet.'} />
      {list.data?.length ? (
        <Table
          caption={`Users${search ? ` matching ${search}` : ''}, oldest first`}
          columns={['Username', 'Name', 'Id', 'Created (UTC)']}
        >
          {list.data.map((u) => (
            <tr key={u.userId}>
              <td>
                <Link to={`/users/${u.userId}`}>{u.username}</Link>
              </td>
              <td>{u.fullName ?? <span className="muted">—</span>}</td>
              <td className="mono">{u.userId}</td>
              <td>{formatTime(u.createdAt)}</td>
            </tr>
          ))}
        </Table>
      ) : null}
    </>
  );
}
