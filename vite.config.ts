import type { Plugin } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { defineConfig } from 'vitest/config';

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

/**
 * The Content-Security-Policy of the built app. Scripts only from the app itself (and
 * WebAssembly compiled by it, for a local model): no inline script, no eval, no plugin. Any
 * https or http server may be connected to, because the servers are the user's to choose at run
 * time (model providers, MCP and ADK servers, a local Ollama on another machine) and a policy in
 * a meta tag cannot be widened later; what keeps a payload from reaching them is that it cannot
 * run. Images from the app, blob: (artifacts, attachments) and data: URLs.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "style-src 'self'",
  "img-src 'self' blob: data:",
  "font-src 'self'",
  "connect-src 'self' https: http: wss: ws: blob: data:",
  "worker-src 'self' blob:",
  "manifest-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
].join('; ');

/**
 * Trusted Types (src/ui/trusted-types.ts), for the page only: in the meta tag, which binds the
 * document and not the workers. A worker's policy comes from its own script's headers, and the
 * workers (the runtime, wllama's, the service worker) touch no DOM; what they load by URL is the
 * app's own code.
 */
export const TRUSTED_TYPES_POLICY =
  "require-trusted-types-for 'script'; trusted-types default trellis-markdown";

/**
 * Cross-origin isolation: with these two headers the page may share memory between threads
 * (SharedArrayBuffer), which a local model needs to run on more than one core. `require-corp`
 * blocks only cross-origin resources loaded without CORS (no-cors images, scripts, frames);
 * the app loads none: its own files are same-origin, and what it fetches from model providers,
 * MCP and ADK servers goes through CORS, as it must already, and the CSP allows no image or frame
 * from another origin. (Not `credentialless`: it would allow what the app does not need, and
 * Safari does not know it.) The service worker (src/sw.ts) adds the same two headers to what it
 * serves, for static hosts that send none: keep the two in step.
 */
export const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** What `vite preview` (and any server set up like it) sends with every response. */
export const SECURITY_HEADERS = {
  ...ISOLATION_HEADERS,
  // A header may say what a meta tag cannot: that no other site may frame the app.
  'Content-Security-Policy': `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
};

/** The policy as a meta tag in the built index.html (static hosts that set no headers). */
const cspMeta: Plugin = {
  name: 'trellis-csp-meta',
  apply: 'build',
  transformIndexHtml: () => [
    {
      tag: 'meta',
      attrs: {
        'http-equiv': 'Content-Security-Policy',
        content: `${CONTENT_SECURITY_POLICY}; ${TRUSTED_TYPES_POLICY}`,
      },
      injectTo: 'head-prepend',
    },
  ],
};

export default defineConfig({
  resolve: { alias: reactAsPreact },
  worker: { format: 'es' },
  build: { target: 'es2022', sourcemap: true },
  preview: { host: '127.0.0.1', headers: SECURITY_HEADERS },
  server: { host: '127.0.0.1', headers: ISOLATION_HEADERS },
  plugins: [
    cspMeta,
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
