import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Type-checking the docs' blocks builds a TypeScript program: seconds, more on a loaded machine.
  test: { include: ['test/**/*.test.ts'], testTimeout: 60_000 },
});
