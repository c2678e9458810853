export { createAccount } from './accounts/accounts.ts';
export { type CreateAppOptions, createApp, type InlayApp, listen } from './app.ts';
export { type Config, ConfigError, loadConfig } from './config.ts';
export { installedConsoleDir } from './console/installed-console.ts';
export type { AppContext } from './context.ts';
export { Vault } from './credentials/vault.ts';
export { answerClientErrors } from './http/client-errors.ts';
export { createLogger } from './logger.ts';
export { createStore, type Store } from './store/store.ts';
