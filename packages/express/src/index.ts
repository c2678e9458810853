export { type AllowedOrigins, type InlayMiddlewareOptions, inlay } from './inlay.ts';
