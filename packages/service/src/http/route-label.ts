import type { Request } from 'express';

/** The route pattern, never the raw URL: paths such as /mcp/:id/:token and /hooks/:id/:secret carry secrets. */
export function routeLabel(req: Request): string {
  const pattern = (req.route as { path?: string } | undefined)?.path;
  if (typeof pattern === 'string') return `${req.baseUrl}${pattern}`;
  const first = req.path.split('/')[1] ?? '';
  return `/${first.slice(0, 40)}${req.path.split('/').length > 2 ? '/…' : ''}`;
}
