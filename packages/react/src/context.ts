import type { UserClient } from '@inlay/client';
import type { QueryClient } from '@tanstack/react-query';
import { createContext } from 'react';
import type { Formatters } from './i18n/format.ts';
import type { MessageKey } from './i18n/locales/en.ts';

/** What the widget reports to the host through `onEvent`. */
export type InlayEvent =
  | { type: 'opened'; workflowId: string }
  | { type: 'closed'; workflowId: string }
  | { type: 'installed'; workflowId: string; installationId: string; updated: boolean }
  | { type: 'uninstalled'; workflowId: string; installationId: string }
  | { type: 'toggled'; workflowId: string; active: boolean }
  | { type: 'connected'; connector: string; credentialId: string; method: 'oauth' | 'apiKey' }
  | { type: 'error'; action: string; error: unknown };

export type ColorScheme = 'light' | 'dark' | 'system';

/** Progress of an install flow that left the page for the OAuth redirect fallback. */
export interface InstallResume {
  workflowId: string;
  credentialId: string;
  connector: string;
  credentialIds: Record<string, string>;
  values: Record<string, unknown>;
}

export interface InlayContextValue {
  client: UserClient;
  queryClient: QueryClient;
  locale: string;
  t: (key: MessageKey, vars?: Record<string, string | number>) => string;
  format: Formatters;
  colorScheme: ColorScheme;
  /** `--inlay-*` custom properties from the `theme` prop. */
  style: Record<string, string>;
  emit: (event: InlayEvent) => void;
  oauth: { callbackOrigin?: string; redirectUri?: string };
  resume: InstallResume | null;
  clearResume: () => void;
  /** "Sign in again": the host's `onSessionExpired`, or a reload of the page. */
  signIn: () => void;
}

export const InlayContext = createContext<InlayContextValue | null>(null);
