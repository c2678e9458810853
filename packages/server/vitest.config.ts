import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // A busy machine (CI runs two lanes on two cores): the first file of a worker pays its service's boot.
    hookTimeout: 120_000,
    // One worker running every file in one module graph (isolate: false): the files share its service and PGlite
    // store (`sharedService()` from @inlay/test-kit) instead of booting one each.
    maxWorkers: 1,
    isolate: false,
  },
});
