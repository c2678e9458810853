import { defineConfig } from 'vitest/config';

// The expression-pool tests count this process's child processes, so they run in a process of their own; every
// other file shares one module graph per worker (isolate: false), and the catalog is compiled once a worker.
const OWN_PROCESS = ['test/expression-pool.test.ts'];

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    // The expression-pool tests start and kill worker processes (one runs until V8's heap limit aborts it):
    // seconds on an idle machine, longer than vitest's 5 s default on a loaded one (failed CI at load 10).
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: OWN_PROCESS, isolate: false },
      },
      { extends: true, test: { name: 'own-process', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
