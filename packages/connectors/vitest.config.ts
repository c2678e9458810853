import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // The expression-pool tests start and kill worker processes (one runs until V8's heap limit aborts it):
    // seconds on an idle machine, longer than vitest's 5 s default on a loaded one (failed CI at load 10).
    testTimeout: 60_000,
    // Files share one module graph per worker: the catalog is compiled once a worker, not once a file.
    isolate: false,
  },
});
