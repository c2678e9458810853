/**
 * A provider's answer relayed by the proxy comes from the provider, not from Inlay or the host, yet a browser
 * would treat it as the origin that relayed it: HTML or SVG with a script would run with the host's cookies. So a
 * proxied answer is never sniffed, and an active one (a type a browser renders with script, or no type at all) is
 * sandboxed and offered as a download instead of rendered.
 */

/**
 * The provider's response headers that never pass: they act on the relaying origin (cookies, navigation,
 * preloads, storage, framing, its content policy). `X-Content-Type-Options` is Inlay's own, and so is
 * `Content-Disposition` on active content (see `proxiedContentHeaders`).
 */
export const PROXY_WITHHELD_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'set-cookie',
  'set-cookie2',
  'refresh',
  'link',
  'clear-site-data',
  'x-frame-options',
  'content-security-policy',
  'content-security-policy-report-only',
]);

const ACTIVE_TYPES = new Set([
  'text/html',
  'application/xhtml+xml',
  'image/svg+xml',
  'text/xml',
  'application/xml',
  'text/xsl',
  'application/xslt+xml',
  'text/javascript',
  'application/javascript',
  'application/x-javascript',
  'text/ecmascript',
  'application/ecmascript',
  'text/vtt',
  'application/pdf',
  'multipart/x-mixed-replace',
]);

/** Whether a browser could run script from a body of this `Content-Type` (a missing or unparsable one counts). */
export function isActiveContent(contentType: string | null | undefined): boolean {
  const essence = (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase();
  if (!/^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(essence)) return true;
  return ACTIVE_TYPES.has(essence) || essence.endsWith('+xml');
}

/**
 * The headers Inlay sets on every proxied answer, over the provider's: `nosniff`, and for active content a
 * sandbox (no script, no same-origin) and `attachment` (a download, not a page).
 */
export function proxiedContentHeaders(contentType: string | null | undefined): Record<string, string> {
  if (!isActiveContent(contentType)) return { 'x-content-type-options': 'nosniff' };
  return {
    'x-content-type-options': 'nosniff',
    'content-security-policy': 'sandbox',
    'content-disposition': 'attachment',
  };
}
