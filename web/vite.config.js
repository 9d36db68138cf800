// Vite config of the privsample demo. Run from the repository root:
//   npx vite build --config web/vite.config.js      → static site in dist/
// base './' makes every URL in the output relative, so dist/ works when served from any sub-path.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { PAGES, pageFrame } from './pages.js';

const here = (path) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('.'),
  publicDir: here('../public'),
  base: './',
  resolve: {
    // The demo is a client of the public npm API: `import { init } from 'privsample'` (and 'privsample/research')
    // resolve to the package's ES-module entry points, exactly as in a user's app.
    alias: [
      { find: /^privsample$/, replacement: here('../bindings/js/privsample.mjs') },
      { find: /^privsample\/research$/, replacement: here('../bindings/js/research.mjs') },
    ],
  },
  // Every page's shared <head> (with the Content-Security-Policy) and site header come from web/pages.js.
  plugins: [pageFrame()],
  worker: { format: 'es' },
  build: {
    outDir: here('../dist'),
    emptyOutDir: true,
    target: 'es2022',
    // The WASM is inlined in the module (base64); no extra chunk-size warning for it.
    chunkSizeWarningLimit: 1024,
    // The pages of web/pages.js (the histogram demo, the continuous view, the reproductions of the papers' figures and
    // the many-users view), linked from each other's header.
    rollupOptions: {
      input: Object.fromEntries(PAGES.map((page) => [page.input, here(page.file)])),
    },
  },
});
