import { InlayProvider } from '@inlay/react';
import { QueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { api, type DemoConfig, type Me } from './api.ts';
import { Deals } from './pages/Deals.tsx';
import { Integrations } from './pages/Integrations.tsx';
import { Login } from './pages/Login.tsx';
import { Privacy } from './pages/Privacy.tsx';
import { RunHistory } from './pages/RunHistory.tsx';
import { usePath } from './router.ts';

const LOCALES = [
  ['en', 'English'],
  ['de', 'Deutsch'],
  ['fr', 'Français'],
  ['es', 'Español'],
  ['ja', '日本語'],
] as const;

type Theme = 'light' | 'dark';

function usePref<T extends string>(key: string, initial: T): [T, (v: T) => void] {
  const [v, setV] = useState<T>(() => (localStorage.getItem(key) as T | null) ?? initial);
  return [
    v,
    (next: T) => {
      localStorage.setItem(key, next);
      setV(next);
    },
  ];
}

const NAV = [
  ['/deals', 'Deals'],
  ['/settings/integrations', 'Settings → Integrations'],
  ['/runs', 'Run history'],
  ['/privacy', 'Privacy'],
] as const;

export function App() {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [config, setConfig] = useState<DemoConfig | null>(null);
  const [theme, setTheme] = usePref<Theme>(
    'acme.theme',
    window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light',
  );
  const [locale, setLocale] = usePref<string>('acme.locale', 'en');
  const [path, go] = usePath();
  // The OAuth popup's result comes from Inlay's callback page, on the service's origin.
  const oauth = useMemo(
    () => (config ? { callbackOrigin: new URL(config.serviceUrl).origin } : undefined),
    [config],
  );
  // One query cache per signed-in user, so nothing of alice's lingers when bob signs in.
  const [queryClient, setQueryClient] = useState(() => new QueryClient());

  useEffect(() => {
    api<Me>('GET', '/me').then(setMe, () => setMe(null));
    api<DemoConfig>('GET', '/config').then(setConfig, () => {});
  }, []);
  useEffect(() => {
    document.documentElement.dataset.theme = theme;
    document.documentElement.lang = locale;
  }, [theme, locale]);

  const signIn = (user: Me) => {
    setQueryClient(new QueryClient());
    setMe(user);
    if (path === '/' || path === '/login') go('/deals');
  };
  const signOut = async () => {
    await api('POST', '/logout');
    queryClient.clear();
    setMe(null);
    go('/');
  };

  const header = (
    <header className="topbar">
      <span className="brand">Acme CRM</span>
      {me && (
        <nav aria-label="Main">
          {NAV.map(([to, label]) => (
            <a
              key={to}
              href={to}
              aria-current={path === to ? 'page' : undefined}
              onClick={(e) => {
                e.preventDefault();
                go(to);
              }}
            >
              {label}
            </a>
          ))}
        </nav>
      )}
      <div className="prefs">
        <button
          type="button"
          className="ghost"
          aria-label={`Switch to ${theme === 'dark' ? 'light' : 'dark'} theme`}
          onClick={() => setTheme(theme === 'dark' ? 'light' : 'dark')}
        >
          {theme === 'dark' ? '☀ Light' : '☾ Dark'}
        </button>
        <label>
          <span className="sr-only">Language</span>
          <select value={locale} onChange={(e) => setLocale(e.target.value)} aria-label="Language">
            {LOCALES.map(([code, name]) => (
              <option key={code} value={code}>
                {name}
              </option>
            ))}
          </select>
        </label>
        {me && (
          <>
            <span className="who" data-testid="who">
              {me.fullName}
            </span>
            <button type="button" className="ghost" onClick={signOut}>
              Log out
            </button>
          </>
        )}
      </div>
    </header>
  );

  if (me === undefined) return header;
  if (me === null)
    return (
      <>
        {header}
        <Login onSignedIn={signIn} sandboxUrl={config?.sandboxUrl} />
      </>
    );

  const page =
    path === '/settings/integrations' ? (
      <Integrations />
    ) : path === '/runs' ? (
      <RunHistory />
    ) : path === '/privacy' ? (
      <Privacy queryClient={queryClient} />
    ) : (
      <Deals />
    );

  return (
    <InlayProvider
      key={me.username}
      baseUrl="/api/inlay"
      tokenUrl="/api/inlay/token"
      colorScheme={theme}
      locale={locale}
      queryClient={queryClient}
      oauth={oauth}
      theme={{ accent: '#4f46e5' }}
    >
      {header}
      {config && <SandboxNotice sandboxUrl={config.sandboxUrl} />}
      <main>{page}</main>
    </InlayProvider>
  );
}

function SandboxNotice({ sandboxUrl }: { sandboxUrl: string }) {
  return (
    <aside className="sandbox-notice" role="note">
      <strong>Demo sandbox.</strong> Slack, HubSpot and GitHub here are local stand-ins run by this demo, not
      the real apps. See what they received at{' '}
      <a href={sandboxUrl} target="_blank" rel="noreferrer">
        the sandbox page ↗
      </a>
      .
    </aside>
  );
}
