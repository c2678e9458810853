// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import de from '../../src/i18n/locales/de.ts';
import en from '../../src/i18n/locales/en.ts';
import es from '../../src/i18n/locales/es.ts';
import fr from '../../src/i18n/locales/fr.ts';
import ja from '../../src/i18n/locales/ja.ts';
import { createFormatters, ExecutionLogs, IntegrationsPage } from '../../src/index.ts';
import { seed, tokenOf } from '../seed.ts';
import { renderWidget } from './render.tsx';

afterEach(cleanup);

describe('languages', () => {
  it('ships every message in de, fr, es and ja, with the same placeholders', () => {
    const vars = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    for (const catalog of [de, fr, es, ja]) {
      expect(Object.keys(catalog).sort()).toEqual(Object.keys(en).sort());
      for (const [k, v] of Object.entries(en)) expect(vars(catalog[k as keyof typeof en])).toEqual(vars(v));
    }
  });

  it('loads the German catalog on demand and formats with Intl', async () => {
    renderWidget(<IntegrationsPage />, { baseUrl: seed.url, getToken: tokenOf('logs'), locale: 'de-DE' });
    await screen.findByRole('searchbox', { name: 'Integrationen durchsuchen' });
    expect(await screen.findByRole('button', { name: 'Einrichten: Post new deals to Slack' })).toBeTruthy();
    const f = createFormatters('de-DE');
    expect(f.duration(1500)).toBe('1,5 Sek.');
    expect(f.relative(new Date(Date.now() - 5 * 60_000).toISOString())).toBe('vor 5 Minuten');
  });

  it('formats every date one way per locale, named in a time zone when one is set', () => {
    const at = '2025-01-10T09:29:00Z';
    expect(createFormatters('en-GB', { timeZone: 'UTC' }).date(at)).toBe('10 Jan 2025, 09:29:00 UTC');
    expect(createFormatters('en', { timeZone: 'UTC' }).date(at)).toBe('Jan 10, 2025, 9:29:00 AM UTC');
    expect(createFormatters('de', { timeZone: 'Europe/Berlin' }).date(at)).toBe('10.01.2025, 10:29:00 MEZ');
  });

  it('takes single message overrides', async () => {
    renderWidget(<ExecutionLogs workflowId={seed.workflowId} />, {
      baseUrl: seed.url,
      getToken: tokenOf('logs'),
      locale: 'ja',
      messages: { refresh: 'Reload runs' },
    });
    expect(await screen.findByRole('button', { name: 'Reload runs' })).toBeTruthy();
    expect(await screen.findByRole('columnheader', { name: '開始' })).toBeTruthy();
  });
});
