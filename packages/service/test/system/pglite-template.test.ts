import { cpSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, describe, expect, it } from 'vitest';
import { hasDatabase, prepareDataDir, templateFile } from '../../src/store/prepare-data-dir.ts';

// Real PGlite folders on disk, set up on the worker thread as the service does at a first start.
const MIGRATIONS = fileURLToPath(new URL('../../drizzle', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'inlay-template-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a new PGlite data folder with a template folder', () => {
  it('keeps the migrated database as a template, and the next new folder loads it', async () => {
    const templates = join(root, 'templates');
    const first = join(root, 'first');
    await prepareDataDir(first, MIGRATIONS, templates);
    expect(hasDatabase(first)).toBe(true);
    const template = templateFile(templates, MIGRATIONS);
    expect(existsSync(template)).toBe(true);

    // The template replaced by one holding a marker table: a folder set up after has it, so it was loaded.
    const db = await PGlite.create(first);
    expect((await db.query('select count(*)::int as n from api_keys')).rows).toEqual([{ n: 0 }]);
    await db.exec('create table template_marker (id int)');
    writeFileSync(template, Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer()));
    await db.close();
    const second = join(root, 'second');
    await prepareDataDir(second, MIGRATIONS, templates);
    const again = await PGlite.create(second);
    expect((await again.query(`select to_regclass('template_marker') is not null as found`)).rows).toEqual([
      { found: true },
    ]);
    await again.close();
  });

  it('names the template after the migrations, so a new migration never loads an older schema', () => {
    const copy = join(root, 'migrations');
    cpSync(MIGRATIONS, copy, { recursive: true });
    const before = templateFile(join(root, 't'), copy);
    writeFileSync(join(copy, '9999_more.sql'), 'select 1;');
    expect(templateFile(join(root, 't'), copy)).not.toBe(before);
    expect(templateFile(join(root, 't'), MIGRATIONS)).toBe(before);
  });
});
