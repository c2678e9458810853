import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    // Generous: tests wait for conditions, and a test that starts its own service can take long on a loaded 2-core machine.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // PGlite instances are memory-hungry; two files at a time suits a 2-core machine.
    maxWorkers: 2,
  },
});
