// Builds the bench page (page/) apart from the app, so that the production build and its
// precache stay untouched: the same sources, target and worker format as vite.config.ts, no PWA.

import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const page = (file: string) => fileURLToPath(new URL(`./page/${file}`, import.meta.url));

export default defineConfig({
  root: page(''),
  base: './',
  logLevel: 'warn',
  worker: { format: 'es' },
  build: {
    target: 'es2022',
    emptyOutDir: true,
    // The runtime bench (index.html) and the Markdown streaming bench (markdown.html).
    rolldownOptions: { input: { index: page('index.html'), markdown: page('markdown.html') } },
  },
  preview: { host: '127.0.0.1' },
});
