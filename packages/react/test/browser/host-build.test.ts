import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, expect, it } from 'vitest';

const PKG = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const dir = mkdtempSync(join(tmpdir(), 'inlay-host-build-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("a host's Vite build of the built package prints no warning about directives", async () => {
  writeFileSync(
    join(dir, 'main.js'),
    "import { InlayProvider, IntegrationsPage, ExecutionLogs, InstallModal, Connections } from '@inlay/react';\n" +
      'console.log(InlayProvider, IntegrationsPage, ExecutionLogs, InstallModal, Connections);\n',
  );
  const logs: string[] = [];
  await build({
    root: dir,
    configFile: false,
    logLevel: 'silent',
    // The package as a host installs it: its built files, not the sources.
    resolve: { alias: { '@inlay/react': join(PKG, 'dist/index.js') } },
    build: {
      write: false,
      lib: { entry: join(dir, 'main.js'), formats: ['es'] },
      rollupOptions: {
        external: [/^@inlay\/(?!react)/, /^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\//],
        onLog(level, log) {
          logs.push(`${level}: ${log.code ?? ''} ${log.message}`);
        },
      },
    },
  });
  expect(logs.filter((l) => /directive|use client/i.test(l))).toEqual([]);
});
