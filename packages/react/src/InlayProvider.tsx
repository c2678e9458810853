import {
  createUserClient,
  type GetToken,
  InlayError,
  isInlayError,
  type TokenResult,
  takePendingOAuth,
  tokenFromUrl,
  type UserClient,
} from '@inlay/client';
import { QueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import {
  type ColorScheme,
  InlayContext,
  type InlayContextValue,
  type InlayEvent,
  type InstallResume,
} from './context.ts';
import { createFormatters } from './i18n/format.ts';
import en, { type Messages } from './i18n/locales/en.ts';
import { retry, retryDelay } from './retry.ts';

/** Theme values: token names without the `--inlay-` prefix (`accent`, `radius`, …) or full custom property names. */
export type InlayTheme = Record<string, string>;

export interface InlayProviderProps {
  /** The service (`https://inlay.example.com`) or the host's proxy path (`/api/inlay`). */
  baseUrl?: string;
  /** A host endpoint answering `GET` with `{token, expiresAt}` (e.g. `@inlay/express`'s `/token`). */
  tokenUrl?: string;
  /** Returns the user's JWT, or `{token, expiresAt}`. Alternative to `tokenUrl`. */
  getToken?: () => TokenResult | Promise<TokenResult>;
  /** A prebuilt client instead of `baseUrl` + token (custom fetch, tests). */
  client?: UserClient;
  /** CSS custom property values, e.g. `{accent: '#6d28d9', radius: '4px'}`. */
  theme?: InlayTheme;
  /** `system` (default) follows `prefers-color-scheme`. */
  colorScheme?: ColorScheme;
  /** BCP 47 tag; en, de, fr, es and ja are built in. Default: `en`. */
  locale?: string;
  /** The IANA time zone dates are shown in, named after each date ("UTC"); the browser's own, unnamed, by default. */
  timeZone?: string;
  /** Overrides of single messages, or a whole catalog for another language. */
  messages?: Partial<Messages>;
  /** Hears installed, uninstalled, toggled, connected, error, opened and closed. */
  onEvent?: (event: InlayEvent) => void;
  /** The host's own QueryClient; otherwise the provider makes one. */
  queryClient?: QueryClient;
  /**
   * The user's session cannot be renewed: the service refused the token and a new one could not be had (the
   * token endpoint or the service answered 401). Called once when that happens, with the error, and again
   * when the user presses "Sign in again"; send them to your sign-in page there. Without it, that button
   * reloads the page.
   */
  onSessionExpired?: (error: InlayError) => void;
  /** OAuth settings: the callback page's origin (when it differs from `baseUrl`'s) and the redirect fallback's return URL. */
  oauth?: { callbackOrigin?: string; redirectUri?: string };
  children?: ReactNode;
}

const LOCALES: Record<string, () => Promise<{ default: Messages }>> = {
  de: () => import('./i18n/locales/de.ts'),
  es: () => import('./i18n/locales/es.ts'),
  fr: () => import('./i18n/locales/fr.ts'),
  ja: () => import('./i18n/locales/ja.ts'),
};

/** Supplies the client, the query client, translations, theme and events to every Inlay component and hook. */
export function InlayProvider(props: InlayProviderProps) {
  const { baseUrl, tokenUrl, locale = 'en', colorScheme = 'system' } = props;
  const getTokenRef = useRef(props.getToken);
  getTokenRef.current = props.getToken;
  const onEventRef = useRef(props.onEvent);
  onEventRef.current = props.onEvent;

  const client = useMemo(() => {
    if (props.client) return props.client;
    if (!baseUrl) throw new Error('<InlayProvider> needs baseUrl (or client)');
    const getToken: GetToken | undefined = tokenUrl
      ? tokenFromUrl(tokenUrl)
      : getTokenRef.current
        ? () => getTokenRef.current!()
        : undefined;
    return createUserClient({ baseUrl, getToken });
  }, [props.client, baseUrl, tokenUrl]);

  const [ownQueryClient] = useState(
    () =>
      new QueryClient({ defaultOptions: { queries: { staleTime: 15_000, refetchOnWindowFocus: false } } }),
  );
  const queryClient = props.queryClient ?? ownQueryClient;
  // Set before the first query renders (an effect would be too late), on the host's QueryClient as well.
  useMemo(() => queryClient.setQueryDefaults(['inlay'], { retry, retryDelay }), [queryClient]);

  const lang = locale.toLowerCase().split('-')[0]!;
  const [loaded, setLoaded] = useState<{ lang: string; messages: Messages } | null>(null);
  useEffect(() => {
    const load = LOCALES[lang];
    if (!load || loaded?.lang === lang) return;
    let live = true;
    load().then((m) => live && setLoaded({ lang, messages: m.default }));
    return () => {
      live = false;
    };
  }, [lang, loaded?.lang]);

  const [resume, setResume] = useState<InstallResume | null>(null);
  useEffect(() => {
    const p = takePendingOAuth();
    const st = p?.state as Omit<InstallResume, 'credentialId' | 'connector'> | undefined;
    if (!p || !st?.workflowId) return;
    // Put the address back as it was before the provider round trip.
    if (p.returnUrl && p.returnUrl !== window.location.href)
      window.history.replaceState(window.history.state, '', p.returnUrl);
    setResume({ ...st, credentialId: p.credentialId, connector: p.connector });
  }, []);

  const emit = useCallback((e: InlayEvent) => onEventRef.current?.(e), []);

  // A 401 that survived the client's token renewal ends the session: tell the host once (until a call works).
  const expiredRef = useRef<InlayError | null>(null);
  const onExpiredRef = useRef(props.onSessionExpired);
  onExpiredRef.current = props.onSessionExpired;
  useEffect(() => {
    const seen = (error: unknown, ok: boolean) => {
      if (ok) expiredRef.current = null;
      else if (isInlayError(error) && error.status === 401 && !expiredRef.current) {
        expiredRef.current = error;
        onExpiredRef.current?.(error);
      }
    };
    const offQ = queryClient
      .getQueryCache()
      .subscribe(
        (e) => e.type === 'updated' && seen(e.query.state.error, e.query.state.status === 'success'),
      );
    const offM = queryClient
      .getMutationCache()
      .subscribe(
        (e) => e.type === 'updated' && seen(e.mutation.state.error, e.mutation.state.status === 'success'),
      );
    return () => {
      offQ();
      offM();
    };
  }, [queryClient]);
  const signIn = useCallback(() => {
    const on = onExpiredRef.current;
    if (on) on(expiredRef.current ?? new InlayError({ status: 401 }));
    else window.location.reload();
  }, []);
  const { messages, theme } = props;
  const value = useMemo<InlayContextValue>(() => {
    const catalog: Messages = { ...en, ...(loaded?.lang === lang ? loaded.messages : {}), ...messages };
    const style: Record<string, string> = {};
    for (const [k, v] of Object.entries(theme ?? {})) style[k.startsWith('--') ? k : `--inlay-${k}`] = v;
    return {
      client,
      queryClient,
      locale,
      t: (key, vars) => (catalog[key] ?? key).replace(/\{(\w+)\}/g, (m, k: string) => String(vars?.[k] ?? m)),
      format: createFormatters(locale, { timeZone: props.timeZone }),
      colorScheme,
      style,
      emit,
      oauth: props.oauth ?? {},
      resume,
      clearResume: () => setResume(null),
      signIn,
    };
  }, [
    client,
    queryClient,
    locale,
    lang,
    loaded,
    messages,
    theme,
    colorScheme,
    emit,
    props.oauth,
    props.timeZone,
    resume,
    signIn,
  ]);

  return <InlayContext.Provider value={value}>{props.children}</InlayContext.Provider>;
}
