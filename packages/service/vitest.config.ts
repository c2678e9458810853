import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: tests wait for conditions, and a test that starts its own service can take long on a loaded 2-core machine.
    testTimeout: 90_000,
    // A busy machine (CI runs two lanes on two cores): the first file of a worker pays its service's boot.
    hookTimeout: 120_000,
    // Two workers suit a 2-core machine. Each runs its files in one module graph (isolate: false), so they share
    // the worker's PGlite store and `sharedService()` instead of booting a database per file (@inlay/test-kit).
    maxWorkers: 2,
    isolate: false,
  },
});
