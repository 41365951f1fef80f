import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The page is built into `dist/` at `npm run build` and served by the service itself at `/`
 * (WEB_ROOT). The workspace packages are bundled from their TypeScript sources (the `source`
 * condition), as the tests run them.
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/',
  logLevel: 'warn',
  resolve: { conditions: ['source', 'browser', 'module', 'import', 'default'] },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true, assetsInlineLimit: 0 },
});
