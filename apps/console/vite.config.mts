// The admin console and the GraphQL explorer, bundled from npm packages into dist/console, which
// the service serves itself: nothing is fetched from outside the machine (issue 39).
import { resolve } from 'node:path';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: resolve(import.meta.dirname, '../../dist/console'),
    emptyOutDir: true,
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      input: { index: resolve(import.meta.dirname, 'index.html'), explorer: resolve(import.meta.dirname, 'explorer.html') },
      // React libraries mark their modules "use client" for server components; a browser bundle has no use for it.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning);
      },
    },
  },
});
