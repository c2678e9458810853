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
    lib: { entry: 'src/index.ts', formats: ['es'] },
    rollupOptions: {
      external: [/^@inlay\//, /^react($|\/)/, /^react-dom($|\/)/, /^@tanstack\//],
      output: {
        preserveModules: true,
        preserveModulesRoot: 'src',
        entryFileNames: '[name].js',
      },
    },
  },
});
