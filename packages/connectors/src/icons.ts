import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ConnectorDefinition } from './types.ts';

const require = createRequire(import.meta.url);
const cache = new Map<string, string>();

const escapeXml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function monogram(def: ConnectorDefinition): string {
  const letter = escapeXml(def.name.trim().charAt(0).toUpperCase() || '?');
  const fill = `#${def.color ?? '6B7280'}`;
  return `<svg role="img" viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg"><title>${escapeXml(def.name)}</title><rect width="24" height="24" rx="5" fill="${fill}"/><text x="12" y="16.5" font-family="system-ui,sans-serif" font-size="13" font-weight="700" text-anchor="middle" fill="#fff">${letter}</text></svg>`;
}

/**
 * The connector's icon as SVG: the simple-icons glyph in brand colour, or a monogram. A custom connector's
 * `icon` may be SVG text itself, which the service sanitised when the connector was stored.
 */
export function connectorIconSvg(def: ConnectorDefinition): string {
  if (def.icon.trimStart().startsWith('<')) return def.icon;
  // Two accounts may each own a custom connector with the same id: the key holds what the icon is drawn from.
  const key = `${def.id}|${def.icon}|${def.color ?? ''}|${def.name}`;
  const hit = cache.get(key);
  if (hit) return hit;
  let svg: string;
  try {
    const raw = readFileSync(require.resolve(`simple-icons/icons/${def.icon}.svg`), 'utf8');
    svg = def.color ? raw.replace('<svg ', `<svg fill="#${def.color}" `) : raw;
  } catch {
    svg = monogram(def);
  }
  cache.set(key, svg);
  return svg;
}
