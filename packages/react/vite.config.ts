import { defineConfig } from 'vite';

// Library build: one ES module per source file (bundlers tree-shake what a host leaves unused), `styles.css`
// copied as is by the build script. React, React DOM, TanStack Query and the @inlay packages stay external.
export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    // `client.ts` is the `react-server` entry: the only module with a "use client" directive.
    lib: { entry: ['src/index.ts', 'src/client.ts'], formats: ['es'] },
    rollupOptions: {
      // The one directive is `client.ts`'s, kept on purpose for React Server Components bundlers.
      onLog(level, log, handler) {
        if (log.code === 'MODULE_LEVEL_DIRECTIVE' && log.id?.endsWith('/src/client.ts')) return;
        handler(level, log);
      },
      external: [/^@inlay\//, /^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\//],
      output: {
        preserveModules: true,
        preserveModulesRoot: 'src',
        entryFileNames: '[name].js',
      },
    },
  },
});
