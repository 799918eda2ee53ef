// Builds the bench page (page/) apart from the app, so that the production build and its
// precache stay untouched: the same sources, target and worker format as vite.config.ts, no PWA.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

export default defineConfig({
  root: fileURLToPath(new URL('./page', import.meta.url)),
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: { target: 'es2022', emptyOutDir: true },
  preview: { host: '127.0.0.1' },
});
