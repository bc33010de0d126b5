// Builds the operator console (docs/console.md) into dist/console, which the service serves at
// /console/. JSX is Preact's; everything the page runs is bundled, nothing comes from elsewhere.
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: '../dist/console',
    emptyOutDir: true,
    target: 'es2022',
    // The module script needs no preload polyfill in the browsers this targets, and the polyfill
    // would be one more script for the Content-Security-Policy to allow.
    modulePreload: { polyfill: false },
  },
  // `npx vite console` serves the page with live reload; the admin API it calls is the service's.
  server: { proxy: { '/admin': 'http://127.0.0.1:8080', '/health': 'http://127.0.0.1:8080' } },
});
