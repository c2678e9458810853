import type { IncomingMessage, ServerResponse } from 'node:http';
import { inlayRoute } from '@inlay/next';
import { createInlayHandler } from '@inlay/server';
import { sendWebResponse, webRequest } from '@inlay/server/node';

/** A node:http listener over the web-standard handler: `next` calls inlayRoute's GET, `web` createInlayHandler. */
export async function inlayNodeHandler(
  framework: string,
  options: { serviceUrl: string; apiKey: string; userId: () => string },
): Promise<(req: IncomingMessage, res: ServerResponse) => void> {
  const handler =
    framework === 'next'
      ? inlayRoute({ ...options, basePath: '/inlay' }).GET
      : createInlayHandler({ ...options, basePath: '/inlay' });
  return (req, res) => {
    void handler(webRequest(req, res, `http://${req.headers.host}`, req.url ?? '/')).then((r) =>
      sendWebResponse(r, res),
    );
  };
}
