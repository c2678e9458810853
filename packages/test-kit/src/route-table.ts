import type { Express } from 'express';

export interface RouteEntry {
  method: string;
  /** Express path pattern, e.g. `/users/:userId/token`. */
  path: string;
  /** Names of the route's own middleware (`requireApiKey` marks account-only routes). */
  handlers: string[];
  /** `:name` parameters in order. */
  params: string[];
}

interface Layer {
  name?: string;
  route?: { path: string | string[]; methods: Record<string, boolean>; stack: Layer[] };
  handle?: { stack?: Layer[] };
}

/** Every route the app serves, read from Express's own router stack: a new route shows up here by itself. */
export function routeTable(app: Express): RouteEntry[] {
  const out: RouteEntry[] = [];
  const walk = (stack: Layer[]) => {
    for (const layer of stack) {
      if (layer.route) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths)
          for (const [m, on] of Object.entries(layer.route.methods)) {
            if (!on || m === '_all') continue;
            out.push({
              method: m.toUpperCase(),
              path,
              handlers: layer.route.stack.map((l) => l.name ?? ''),
              params: [...path.matchAll(/[:*](\w+)/g)].map((x) => x[1]!),
            });
          }
        if (layer.route.methods._all)
          for (const path of paths)
            out.push({
              method: 'POST',
              path,
              handlers: layer.route.stack.map((l) => l.name ?? ''),
              params: [...path.matchAll(/[:*](\w+)/g)].map((x) => x[1]!),
            });
      } else if (layer.handle?.stack) walk(layer.handle.stack);
    }
  };
  walk((app as unknown as { router: { stack: Layer[] } }).router.stack);
  // A route registered twice (e.g. GET also answering HEAD) is tried once.
  const seen = new Set<string>();
  return out.filter((r) => {
    const k = `${r.method} ${r.path}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

/** Fills `:params` from a function of the parameter name. */
export function fillPath(path: string, value: (param: string) => string): string {
  return path.replace(/[:*](\w+)/g, (_, name: string) => value(name));
}

export const isMcpRoute = (r: RouteEntry) => r.path.startsWith('/mcp/:');
export const apiKeyOnly = (r: RouteEntry) => r.handlers.includes('requireApiKey');
