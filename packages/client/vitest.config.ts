import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    // A busy machine (CI runs two lanes on two cores): the first file of a worker pays its service's boot.
    hookTimeout: 120_000,
    maxWorkers: 2,
    // Each worker runs its files in one module graph, so they share its service (`sharedService()`).
    isolate: false,
  },
});
