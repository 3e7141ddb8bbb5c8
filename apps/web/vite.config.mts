import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// Paths are taken from this file's folder so `vite build -c apps/web/vite.config.mts` works from
// the repository root (the gateway serves <repo>/dist/web at /app).
const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/app/',
  // Vite's own JSX transform (oxc), automatic runtime from Preact: no babel preset to keep.
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  // The one library the app takes from the monorepo: quick add's name matcher, shared with the
  // server's parser so the highlights never disagree with it (pure TypeScript, no imports).
  resolve: { alias: { '@doable/shared-quick-add-names': fileURLToPath(new URL('../../libs/shared/quick-add-names/src/index.ts', import.meta.url)) } },
  build: {
    outDir: fileURLToPath(new URL('../../dist/web', import.meta.url)),
    emptyOutDir: true,
    assetsDir: 'assets',
    // The CSP forbids inline script and style: never inline assets or the module preload polyfill.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    cssCodeSplit: false,
    target: 'es2022',
  },
});
