import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DOCS_ASSETS, type DocsAsset, operations as ops } from '@inlay/contract';
import { Router } from 'express';
import type { AppContext } from '../context.ts';
import { notFound } from '../http/problem.ts';
import { route } from '../http/route.ts';

/** Swagger UI's files, served from the installed `swagger-ui-dist`: the reference needs no CDN and works offline. */
const VIEWER_DIR = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/swagger-ui-bundle.js'));

const TYPES: Record<DocsAsset, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'init.js': 'text/javascript; charset=utf-8',
};

// Its own file rather than an inline script, so the page's CSP can keep `script-src 'self'`.
const initScript = (specUrl: string) => `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${JSON.stringify(specUrl)},
    dom_id: '#docs',
    deepLinking: true,
    validatorUrl: null,
    defaultModelsExpandDepth: 0,
  });
});
`;

const page = (base: string) => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Inlay API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${base}/docs/swagger-ui.css">
</head>
<body>
<div id="docs"></div>
<script src="${base}/docs/swagger-ui-bundle.js"></script>
<script src="${base}/docs/init.js"></script>
</body>
</html>
`;

/**
 * `GET /docs`: the interactive API reference, Swagger UI rendering `/openapi.json`. Public, like the document
 * it renders. Paths carry `INLAY_PUBLIC_URL`'s path, so the page works behind a prefix too.
 */
export function docsRoutes(ctx: AppContext): Router {
  const r = Router();
  const publicUrl = new URL(ctx.config.publicUrl);
  const base = publicUrl.pathname.replace(/\/+$/, '');
  const html = page(base);
  const files = new Map<string, Buffer | string>();
  const asset = (name: DocsAsset) => {
    let body = files.get(name);
    if (body === undefined) {
      body = name === 'init.js' ? initScript(`${base}/openapi.json`) : readFileSync(join(VIEWER_DIR, name));
      files.set(name, body);
    }
    return body;
  };
  const csp = [
    "default-src 'none'",
    "script-src 'self'",
    // Swagger UI sets inline styles on its elements.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    // "Try it out" calls the API at the document's server URL.
    `connect-src 'self' ${publicUrl.origin}`,
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');

  route(r, ops.getDocs, (_req, res) => {
    res.set({ 'content-security-policy': csp, 'cache-control': 'no-cache' }).type('html').send(html);
  });

  route(r, ops.getDocsAsset, (req, res) => {
    const name = String(req.params.asset) as DocsAsset;
    if (!(DOCS_ASSETS as readonly string[]).includes(name)) throw notFound('Docs file');
    res.set({ 'content-type': TYPES[name], 'cache-control': 'public, max-age=3600' }).send(asset(name));
  });

  return r;
}
