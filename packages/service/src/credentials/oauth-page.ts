import { createHash } from 'node:crypto';
import type { OAuthMessage } from '@inlay/contract';

/** The BroadcastChannel the callback page announces its result on, for tabs whose opener link was severed. */
export const OAUTH_CHANNEL = 'inlay:oauth';

const STYLE =
  'body{font:16px/1.5 system-ui,sans-serif;margin:0;display:grid;place-items:center;min-height:100vh;color:#1f2937}main{max-width:28rem;padding:1.5rem;text-align:center}';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON that is safe inside a <script>: no `</script>`, no HTML-significant characters, no line separators. */
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;

export interface Page {
  html: string;
  /** A Content-Security-Policy that allows exactly the inline script and style of this page. */
  csp: string;
}

function page(title: string, text: string, script?: string): Page {
  const csp = [
    "default-src 'none'",
    `style-src ${hash(STYLE)}`,
    `script-src ${script ? hash(script) : "'none'"}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main>${script ? `<script>${script}</script>` : ''}</body></html>
`;
  return { html, csp };
}

/**
 * The popup's answer: posts the result to its opener with an explicit target origin (never `*`), also
 * broadcasts it on `BroadcastChannel('inlay:oauth')`, and closes itself. It holds no token or code.
 */
export function popupPage(message: OAuthMessage, targetOrigin: string): Page {
  const script = `(function () {
  var message = ${scriptJson(message)};
  try { if (window.opener) window.opener.postMessage(message, ${scriptJson(targetOrigin)}); } catch (e) {}
  try { var channel = new BroadcastChannel(${scriptJson(OAUTH_CHANNEL)}); channel.postMessage(message); channel.close(); } catch (e) {}
  setTimeout(function () { window.close(); }, 150);
})();`;
  return message.status === 'connected'
    ? page('Connected', 'You can close this window.', script)
    : page('Connection failed', message.reason ?? 'The app did not grant access.', script);
}

/** A callback Inlay will not act on (no, spent or expired state): a plain page without script. */
export const rejectedPage = (text: string): Page => page('This link cannot be used', text);
