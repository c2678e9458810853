import { createRequire } from 'node:module';
import { CONNECTOR_CATEGORIES } from '@inlay/contract';
import { describe, expect, it } from 'vitest';
import { apps } from '../src/apps/index.ts';
import {
  actionInputSchema,
  builtins,
  catalog,
  connectorIconSvg,
  connectorUuid,
  toConnector,
  toConnectorAction,
} from '../src/index.ts';

const require = createRequire(import.meta.url);
/** Apps whose brand simple-icons 13.21.0 lacks (e.g. Pipedrive): they get a drawn monogram. */
const MONOGRAMS = new Set<string>([
  'microsoft-teams',
  'outlook',
  'monday',
  'pipedrive',
  'postmark',
  'freshdesk',
  'front',
]);

describe('catalog', () => {
  it('has at least 35 app connectors after the built-ins, Slack first', () => {
    expect(apps.length).toBeGreaterThanOrEqual(35);
    expect(apps[0]!.id).toBe('slack');
    expect(catalog.map((c) => c.id)).toEqual([...builtins, ...apps].map((c) => c.id));
  });

  it('gives every connector a distinct, stable UUID', () => {
    const ids = catalog.map((c) => connectorUuid(c.id));
    expect(new Set(ids).size).toBe(catalog.length);
    expect(connectorUuid('slack')).toBe(connectorUuid('slack'));
  });

  describe.each(apps.map((a) => [a.id, a] as const))('%s', (_id, app) => {
    it('has at least one read and one write action, a test request and an option source', () => {
      expect(app.actions.some((a) => a.kind === 'read')).toBe(true);
      expect(app.actions.some((a) => a.kind === 'write')).toBe(true);
      expect(app.test).toBeDefined();
      expect(Object.keys(app.sources ?? {}).length).toBeGreaterThanOrEqual(1);
    });

    it('points at real https hosts of the provider', () => {
      const urls = [app.baseUrl, ...Object.values(app.apis ?? {})];
      if (app.auth.type === 'oauth2') urls.push(app.auth.authorizeUrl, app.auth.tokenUrl);
      for (const url of urls) {
        // A `{setting}` may fill a subdomain or, for per-region domains (Zoho), the domain's tail.
        expect(url).toMatch(/^https:\/\/[a-z0-9{}.-]+\.([a-z]{2,}|\{[A-Za-z]+\})(\/|$)/);
        expect(url).not.toMatch(/localhost|127\.0\.0\.1|example\./);
      }
      expect(app.docs).toMatch(/^https:\/\//);
      expect(CONNECTOR_CATEGORIES).toContain(app.category);
    });

    it('has an SVG icon in its brand colour, from simple-icons unless listed as a monogram', () => {
      const svg = connectorIconSvg(app);
      expect(app.color).toMatch(/^[0-9A-Fa-f]{6}$/);
      if (MONOGRAMS.has(app.id)) {
        // Listed only while simple-icons really lacks the slug, so a later glyph is not missed.
        expect(() => require.resolve(`simple-icons/icons/${app.icon}.svg`)).toThrow();
        expect(svg).toContain(`<rect width="24" height="24" rx="5" fill="#${app.color}"/>`);
        expect(svg).toContain(`>${app.name.charAt(0).toUpperCase()}</text>`);
        return;
      }
      expect(svg).toMatch(/^<svg [^>]*fill="#[0-9A-Fa-f]{6}"/);
      expect(() => require.resolve(`simple-icons/icons/${app.icon}.svg`)).not.toThrow();
      expect(svg).toContain('<path');
    });

    it('describes every input field for agents and forms', () => {
      for (const action of app.actions) {
        const schema = actionInputSchema(action) as {
          type: string;
          properties: Record<string, { description?: string }>;
        };
        expect(schema.type, action.id).toBe('object');
        for (const [name, prop] of Object.entries(schema.properties))
          expect(prop.description, `${app.id}.${action.id}.${name}`).toBeTruthy();
      }
    });

    it('keeps secrets out of settings: only non-secret fields are plain settings', () => {
      const fields = app.auth.type === 'none' ? [] : (app.auth.fields ?? []);
      const entry = toConnector(app, 'https://inlay.test');
      expect(entry.credentialFields).toEqual(fields);
      expect(entry.icon).toBe(`https://inlay.test/connectors/${app.id}/icon.svg`);
      expect(app.actions.map(toConnectorAction).every((a) => a.inputSchema.type === 'object')).toBe(true);
    });
  });

  it("lists a connector's named APIs (the proxy's ?api=) by name, and none when it has none", () => {
    const byId = (id: string) => catalog.find((c) => c.id === id)!;
    expect(toConnector(byId('google-sheets'), 'https://inlay.test').apis).toEqual(['drive']);
    expect(toConnector(byId('xero'), 'https://inlay.test').apis).toEqual(['identity']);
    expect(toConnector(byId('slack'), 'https://inlay.test')).not.toHaveProperty('apis');
  });

  it('draws a monogram for an icon simple-icons does not have', () => {
    const svg = connectorIconSvg({
      ...apps[0]!,
      id: 'pipedrive',
      name: 'Pipedrive',
      icon: 'pipedrive',
      color: '017737',
    });
    expect(svg).toContain('>P</text>');
    expect(svg).toContain('fill="#017737"');
  });
});
