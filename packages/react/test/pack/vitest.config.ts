import { defineConfig } from 'vitest/config';

// The pack tier builds host apps from dist/: no service, so none of the browser tier's global setup.
export default defineConfig({
  test: { include: ['test/pack/**/*.test.ts'], testTimeout: 120_000 },
});
