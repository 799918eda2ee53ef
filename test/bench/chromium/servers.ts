// Builds the production app (as test/e2e/serve-app.ts does) and the bench page, each into a
// directory of its own under the system's temp dir — never dist/, which the browser tests may
// be serving at the same time — and serves both with `vite preview` on 127.0.0.1.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build, preview, type PreviewServer } from 'vite';

const APP_CONFIG = 'vite.config.ts';
const BENCH_CONFIG = 'test/bench/chromium/vite.config.ts';

export interface Served {
  appUrl: string;
  benchUrl: string;
  /** The production build, for its bundle sizes. */
  appDir: string;
  close(): Promise<void>;
}

export async function buildAndServe(): Promise<Served> {
  const root = mkdtempSync(join(tmpdir(), 'trellis-bench-'));
  const appDir = join(root, 'app');
  const benchDir = join(root, 'bench');
  await build({
    configFile: APP_CONFIG,
    logLevel: 'warn',
    build: { outDir: appDir, emptyOutDir: true },
  });
  await build({ configFile: BENCH_CONFIG, build: { outDir: benchDir } });
  const servers: PreviewServer[] = [];
  const serve = async (configFile: string, outDir: string) => {
    const served = await servePreview(configFile, outDir);
    servers.push(served.server);
    return served.url;
  };
  const appUrl = await serve(APP_CONFIG, appDir);
  const benchUrl = await serve(BENCH_CONFIG, benchDir);
  return {
    appUrl,
    benchUrl,
    appDir,
    async close() {
      await Promise.all(servers.map((server) => server.close()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** The production app alone (the big-state bench drives only the app). */
export async function buildAndServeApp(): Promise<{ appUrl: string; close(): Promise<void> }> {
  const appDir = mkdtempSync(join(tmpdir(), 'trellis-bench-app-'));
  await build({
    configFile: APP_CONFIG,
    logLevel: 'warn',
    build: { outDir: appDir, emptyOutDir: true },
  });
  const { server, url } = await servePreview(APP_CONFIG, appDir);
  return {
    appUrl: url,
    async close() {
      await server.close();
      rmSync(appDir, { recursive: true, force: true });
    },
  };
}

/** The bench page alone (the Markdown streaming bench needs no app build). */
export async function buildAndServeBenchPage(): Promise<{
  benchUrl: string;
  close(): Promise<void>;
}> {
  const benchDir = mkdtempSync(join(tmpdir(), 'trellis-bench-page-'));
  await build({ configFile: BENCH_CONFIG, build: { outDir: benchDir } });
  const { server, url } = await servePreview(BENCH_CONFIG, benchDir);
  return {
    benchUrl: url,
    async close() {
      await server.close();
      rmSync(benchDir, { recursive: true, force: true });
    },
  };
}

async function servePreview(configFile: string, outDir: string) {
  const server = await preview({
    configFile,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0 },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview has no port');
  return { server, url: `http://127.0.0.1:${address.port}/` };
}
