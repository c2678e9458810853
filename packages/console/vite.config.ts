import { defineConfig } from 'vite';

// Served by the service at /console; workspace packages resolve to their sources (`@inlay/source`).
export default defineConfig({
  base: '/console/',
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
