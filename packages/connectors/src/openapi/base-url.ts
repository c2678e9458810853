import { DeclarativeConnector } from '@inlay/contract';
import type { ApiDocument } from './read-document.ts';

const ABSOLUTE = /^https?:\/\/[^/]/i;

/** `servers[0]` with its variables at their defaults (3.x), or `schemes[0]://host basePath` (2.0); undefined when relative or absent. */
export function documentBaseUrl(doc: ApiDocument): string | undefined {
  if (doc.swagger) {
    if (typeof doc.host !== 'string' || !doc.host) return undefined;
    const schemes: string[] = Array.isArray(doc.schemes) ? doc.schemes : [];
    const scheme = schemes.includes('https') || !schemes.length ? 'https' : schemes[0];
    return trim(`${scheme}://${doc.host}${typeof doc.basePath === 'string' ? doc.basePath : ''}`);
  }
  const server = Array.isArray(doc.servers) ? doc.servers[0] : undefined;
  if (!server || typeof server.url !== 'string') return undefined;
  const vars: Record<string, { default?: unknown }> = server.variables ?? {};
  const url = server.url.replace(/\{([^}]+)\}/g, (m: string, name: string) =>
    vars[name]?.default !== undefined ? String(vars[name].default) : m,
  );
  return ABSOLUTE.test(url) && !/[{}]/.test(url) ? trim(url) : undefined;
}

const trim = (url: string) => url.replace(/\/+$/, '');

/** A URL the document gives relative to its server (an OAuth endpoint, say), made absolute. */
export function absoluteUrl(url: unknown, base: string): string | undefined {
  if (typeof url !== 'string' || !url) return undefined;
  try {
    const { href } = new URL(url, `${base}/`);
    // Held to the same rule as the connector's own URLs (http or https, not too long).
    return DeclarativeConnector.shape.baseUrl.safeParse(href).success ? href : undefined;
  } catch {
    return undefined;
  }
}
