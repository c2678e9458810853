import { defineConfig } from 'vite';

// Workspace packages resolve to their TypeScript sources (`@inlay/source`), so the demo needs no package build.
export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    rolldownOptions: {
      // react-query's "use client" directives mean nothing in a client-only bundle.
      onLog(level, log, handler) {
        if (log.code !== 'MODULE_LEVEL_DIRECTIVE') handler(level, log);
      },
    },
  },
});
