// The two pages of the local model bench, served alike: the production app (built as
// test/e2e/serve-app.ts builds it, into a temp dir, never dist/) and the wllama baseline page
// (page/), each by `vite preview` on 127.0.0.1 with the app's security headers. Cross-origin
// isolation (COOP + COEP) is what lets wllama run threads, so both get it, or neither: with it
// the app's worker runs the model on two threads (src/models/local/local-threads.ts), without
// it on one, and the baseline is loaded with the same count.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview, type PreviewServer } from 'vite';
import { ISOLATION_HEADERS, SECURITY_HEADERS } from '../../../../vite.config.ts';
import { serveHarness } from '../../../e2e/markdown-harness/serve.ts';

export interface LocalBenchPages {
  appUrl: string;
  baselineUrl: string;
  close(): Promise<void>;
}

export async function serveLocalBenchPages(isolated: boolean): Promise<LocalBenchPages> {
  const headers: Record<string, string> = { ...SECURITY_HEADERS };
  if (!isolated) for (const name of Object.keys(ISOLATION_HEADERS)) delete headers[name];
  const appDir = mkdtempSync(join(tmpdir(), 'trellis-local-bench-'));
  await build({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    build: { outDir: appDir, emptyOutDir: true },
  });
  // No config file: the app's would add its own headers (isolation) to these.
  let app: PreviewServer | undefined;
  try {
    app = await preview({
      configFile: false,
      logLevel: 'warn',
      build: { outDir: appDir },
      preview: { host: '127.0.0.1', port: 0, headers },
    });
    const baseline = await serveHarness(
      fileURLToPath(new URL('./page/', import.meta.url)),
      headers,
    );
    const server = app;
    return {
      appUrl: urlOf(server),
      baselineUrl: baseline.url,
      async close() {
        await Promise.all([server.close(), baseline.close()]);
        rmSync(appDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await app?.close();
    rmSync(appDir, { recursive: true, force: true });
    throw error;
  }
}

function urlOf(server: PreviewServer): string {
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview has no port');
  return `http://127.0.0.1:${address.port}/`;
}
