export type { AllowedOrigins } from './csrf.ts';
export { type InlayMiddlewareOptions, inlay } from './inlay.ts';
