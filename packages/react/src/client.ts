'use client';
// The entry a React Server Components bundler (Next.js's app router) reads, through the `react-server` export
// condition: the same exports, marked once as client code. Other bundlers read `index.ts`, which carries no
// directive, so a host's Vite or webpack build has nothing to warn about.
export {
  Connections,
  createFormatters,
  createUserClient,
  ExecutionLogs,
  INLAY_REFRESH_EVENT,
  InlayError,
  InlayProvider,
  InstallModal,
  IntegrationsPage,
  isInlayError,
  JsonViewer,
  LIVE_POLL_MS,
  POLL_AFTER_MOUNT_MS,
  refreshInlay,
  useConnect,
  useConnections,
  useConnectors,
  useCredentials,
  useInlay,
  useInstall,
  useInstallations,
  useOptions,
  useRerun,
  useToggleWorkflow,
  useUninstall,
  useWorkflow,
  useWorkflowLogs,
  useWorkflows,
} from './index.ts';
