import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';
import {
  DOCUMENT_HEADERS,
  ISOLATION_HEADERS,
  PAGE_META_POLICY,
  SECURITY_HEADERS,
  looksLikeFile,
} from './src/security-headers.ts';

export { ISOLATION_HEADERS, SECURITY_HEADERS };

/**
 * React's names, for the libraries written for React (xyflow, the flow canvas): Preact's compat
 * layer answers them, so the page carries one UI library.
 */
export const reactAsPreact = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/jsx-dev-runtime' },
];

/** The policy as a meta tag in the built index.html (static hosts that set no headers). */
const cspMeta: Plugin = {
  name: 'trellis-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content: PAGE_META_POLICY,
      },
      injectTo: 'head-prepend',
    },
  ],
};

/**
 * `vite preview` as a host should serve the app: every response with SECURITY_HEADERS, a page
 * with Trusted Types too (DOCUMENT_HEADERS), and a file that does not exist (a path that looks
 * like one: `/robots.txt` once, `/old-chunk.js`) as a 404 instead of the app's page. (Not
 * `preview.headers`: Vite sets those as it serves a file, over whatever came before.)
 */
const previewAsHost: Plugin = {
  name: 'trellis-preview-as-host',
  configurePreviewServer(server) {
    const dist = resolve(server.config.root, server.config.build.outDir);
    server.middlewares.use((request, response, next) => {
      let path: string;
      try {
        path = decodeURIComponent(new URL(request.url ?? '/', 'http://host').pathname);
      } catch {
        path = '/';
      }
      const file = looksLikeFile(path) && !path.endsWith('.html');
      // Anything but a file is a page: the app, whatever its route.
      for (const [name, value] of Object.entries(file ? SECURITY_HEADERS : DOCUMENT_HEADERS))
        response.setHeader(name, value);
      if (!file || existsSync(join(dist, path))) return next();
      response.statusCode = 404;
      response.setHeader('Content-Type', 'text/plain; charset=utf-8');
      response.end('Not found');
    });
  },
};

export default defineConfig({
  resolve: { alias: reactAsPreact },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: { host: '127.0.0.1' },
  server: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
  plugins: [
    cspMeta,
    previewAsHost,
    VitePWA({
      // The page offers a new version ("Update") rather than swapping it under the user.
      registerType: 'prompt',
      injectRegister: false,
      includeAssets: ['favicon.svg', 'apple-touch-icon.png'],
      manifest: {
        name: 'Trellis — agent workbench',
        short_name: 'Trellis',
        description:
          'Build AI agents, talk to them, rewind and resume — all in your browser, offline.',
        theme_color: '#1f5f4a',
        background_color: '#f5f7f6',
        display: 'standalone',
        start_url: '/',
        scope: '/',
        icons: [
          { src: 'icon-192.png', sizes: '192x192', type: 'image/png' },
          { src: 'icon-512.png', sizes: '512x512', type: 'image/png' },
          {
            src: 'icon-maskable-512.png',
            sizes: '512x512',
            type: 'image/png',
            purpose: 'maskable',
          },
        ],
      },
      // Our own service worker (src/sw.ts), for what generateSW cannot do: add the
      // cross-origin isolation headers to what it serves, for static hosts that set none.
      strategies: 'injectManifest',
      srcDir: 'src',
      filename: 'sw.ts',
      injectManifest: {
        // Every asset, the runtime worker's chunk included: the app opens offline from the first
        // visit. The wasm is llama.cpp's, for local models (about 9 MB): precached too, so a
        // local model runs offline, hence the higher size limit (the default is 2 MB).
        globPatterns: ['**/*.{js,css,html,svg,png,webmanifest,wasm}'],
        maximumFileSizeToCacheInBytes: 16 * 1024 * 1024,
      },
    }),
  ],
  test: {
    projects: [
      {
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'], environment: 'node' },
      },
      {
        test: {
          name: 'e2e',
          // The hard-kill tests drive the same built app (`npm run test:faults` runs 100 kills).
          include: ['test/e2e/**/*.test.ts', 'test/faults/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/serve-app.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One Chromium at a time: these machines have two cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'docs',
          include: ['test/docs/**/*.docs.ts'],
          environment: 'node',
          globalSetup: ['test/e2e/serve-app.ts'],
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'bench',
          include: ['test/bench/**/*.bench.ts'],
          environment: 'node',
          testTimeout: 600_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
