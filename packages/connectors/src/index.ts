export { delay, MAX_DELAY_MS } from './builtins/delay.ts';
export { http } from './builtins/http.ts';
export { evaluateJsonata, transform } from './builtins/transform.ts';
export {
  actionInputSchema,
  builtins,
  catalog,
  connectorIconUrl,
  connectorUuid,
  credentialFields,
  iconUrl,
  toConnector,
  toConnectorAction,
  toConnectorTrigger,
} from './catalog.ts';
export { compileDeclarative, parseDeclarative } from './declarative/compile-declarative.ts';
export { defineAction, definePollTrigger, defineWebhookTrigger } from './define.ts';
export * from './egress/index.ts';
export { ConnectorError, isTransientStatus, parseRetryAfter } from './errors.ts';
export * from './expressions/index.ts';
export { connectorIconSvg } from './icons.ts';
export type { StreamedResponse } from './node-transport.ts';
export * from './openapi/index.ts';
export { REDACTED, redact, secretValues } from './redact.ts';
export {
  type ActionResult,
  type CallOptions,
  ConnectorRuntime,
  type ProviderCallInfo,
  providerMessage,
  type RuntimeOptions,
  type TestVerdict,
} from './runtime.ts';
export { ConnectorDefinitionSchema, validateConnectors } from './schema.ts';
export { envKey, fill } from './template.ts';
export * from './triggers/index.ts';
export type * from './types.ts';
