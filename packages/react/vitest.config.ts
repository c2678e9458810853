import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  ssr: { resolve: { conditions: ['@inlay/source'] } },
  test: {
    include: ['test/**/*.test.{ts,tsx}'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    // A busy machine (CI runs two lanes on two cores): hooks start Chromium and seed users.
    hookTimeout: 120_000,
    maxWorkers: 2,
  },
});
