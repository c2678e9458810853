export {
  type Connector,
  type Credential,
  createUserClient,
  InlayError,
  type Installation,
  isInlayError,
  type LogEntry,
  type UserClient,
  type Workflow,
} from '@inlay/client';
export { Connections, type ConnectionsProps } from './components/Connections.tsx';
export {
  ExecutionLogs,
  type ExecutionLogsProps,
  type ExecutionLogsSlot,
} from './components/ExecutionLogs.tsx';
export { InstallModal, type InstallModalProps, type InstallModalSlot } from './components/InstallModal.tsx';
export {
  IntegrationsPage,
  type IntegrationsPageProps,
  type IntegrationsPageSlot,
} from './components/IntegrationsPage.tsx';
export { JsonViewer } from './components/JsonViewer.tsx';
export type { ColorScheme, InlayContextValue, InlayEvent } from './context.ts';
export { type ConnectOAuthOptions, useConnect } from './hooks/useConnect.ts';
export { type Connection, useConnections } from './hooks/useConnections.ts';
export { useConnectors } from './hooks/useConnectors.ts';
export { useCredentials } from './hooks/useCredentials.ts';
export { useInlay } from './hooks/useInlay.ts';
export { type InstallVariables, useInstall } from './hooks/useInstall.ts';
export { useInstallations } from './hooks/useInstallations.ts';
export { useOptions } from './hooks/useOptions.ts';
export { type RerunVariables, useRerun } from './hooks/useRerun.ts';
export { type ToggleVariables, useToggleWorkflow } from './hooks/useToggleWorkflow.ts';
export { type UninstallVariables, useUninstall } from './hooks/useUninstall.ts';
export { useWorkflow } from './hooks/useWorkflow.ts';
export { LIVE_POLL_MS, POLL_AFTER_MOUNT_MS, useWorkflowLogs } from './hooks/useWorkflowLogs.ts';
export { useWorkflows } from './hooks/useWorkflows.ts';
export { InlayProvider, type InlayProviderProps, type InlayTheme } from './InlayProvider.tsx';
export { createFormatters, type FormatterOptions, type Formatters } from './i18n/format.ts';
export type { MessageKey, Messages } from './i18n/locales/en.ts';
export { INLAY_REFRESH_EVENT, refreshInlay } from './refreshInlay.ts';
