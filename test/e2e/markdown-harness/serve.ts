// Builds a harness page (the Markdown one, index.html here, unless another directory is given)
// as the app is built (vite, the same sources) into a directory of its own, and serves it with
// `vite preview` on 127.0.0.1.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, preview } from 'vite';

export interface Harness {
  url: string;
  close(): Promise<void>;
}

export async function serveHarness(
  root = fileURLToPath(new URL('.', import.meta.url)),
  headers: Record<string, string> = {},
): Promise<Harness> {
  const outDir = mkdtempSync(join(tmpdir(), 'trellis-harness-'));
  await build({
    configFile: false,
    root,
    base: './',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const server = await preview({
    configFile: false,
    root,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, headers },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview has no port');
  return {
    url: `http://127.0.0.1:${address.port}/`,
    async close() {
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}
