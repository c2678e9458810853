import { defineConfig } from 'vite';

// Library build: one ES module per source file, so bundlers tree-shake what a host does not use.
export default defineConfig({
  resolve: { conditions: ['@inlay/source'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    target: 'es2022',
    lib: { entry: ['src/index.ts', 'src/index.server.ts'], formats: ['es'] },
    rollupOptions: {
      external: [/^@inlay\//, 'standardwebhooks'],
      output: { preserveModules: true, preserveModulesRoot: 'src', entryFileNames: '[name].js' },
    },
  },
});
