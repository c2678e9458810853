import { type ConsoleSession, consoleSessions, createConsoleClient, type ServerClient } from '@inlay/client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useMemo } from 'react';

/** The service serves the console under `/console`: its API is the same origin's root. */
const BASE_URL = window.location.origin;
export const sessions = consoleSessions({ baseUrl: BASE_URL });

interface SessionValue {
  session: ConsoleSession;
  client: ServerClient;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionValue | null>(null);

export function useConsole(): SessionValue {
  const v = useContext(SessionContext);
  if (!v) throw new Error('useConsole() outside a signed-in console');
  return v;
}

/** The browser's session, from its httpOnly cookie: null when signed out. */
export function useSessionQuery() {
  return useQuery({
    queryKey: ['console-session'],
    queryFn: () => sessions.current(),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

export function SessionProvider({ session, children }: { session: ConsoleSession; children: ReactNode }) {
  const qc = useQueryClient();
  const value = useMemo<SessionValue>(
    () => ({
      session,
      client: createConsoleClient({ baseUrl: BASE_URL, csrfToken: session.csrfToken }),
      async signOut() {
        await sessions.signOut(session.csrfToken).catch(() => undefined);
        // The session first, so App shows the sign-in at once; then every cached answer of the old session.
        // (A plain `clear()` would drop the query App observes, and App would not hear of the sign-out.)
        qc.setQueryData(['console-session'], null);
        qc.removeQueries({ predicate: (q) => q.queryKey[0] !== 'console-session' });
      },
    }),
    [session, qc],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
