export { type InlayMiddlewareOptions, inlay } from './inlay.ts';
