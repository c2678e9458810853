import { type FormEvent, useState } from 'react';
import { api, type Me } from '../api.ts';

export function Login({ onSignedIn, sandboxUrl }: { onSignedIn: (me: Me) => void; sandboxUrl?: string }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent<HTMLFormElement>) {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    setBusy(true);
    setError(null);
    try {
      onSignedIn(
        await api<Me>('POST', '/login', { username: form.get('username'), password: form.get('password') }),
      );
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <h1>Sign in to Acme CRM</h1>
      <p className="muted">
        A demo SaaS that embeds Inlay. Log in as <code>alice</code> or <code>bob</code>, password{' '}
        <code>demo</code>.
      </p>
      <form onSubmit={submit} className="card stack">
        <label>
          Username
          <input name="username" autoComplete="username" required defaultValue="alice" />
        </label>
        <label>
          Password
          <input name="password" type="password" autoComplete="current-password" required />
        </label>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <button type="submit" className="primary" disabled={busy}>
          Sign in
        </button>
      </form>
      {sandboxUrl && (
        <p className="muted">
          Third-party apps in this demo are local stand-ins: <a href={sandboxUrl}>the sandbox</a>.
        </p>
      )}
    </main>
  );
}
