// Global setup of the browser tests: build the app and serve it with `vite preview` on
// 127.0.0.1, as a user would run it.

import { existsSync } from 'node:fs';
import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';
import { CHROMIUM } from './browser.ts';

let server: PreviewServer | undefined;

export default async function serveApp(project: TestProject) {
  // Said once, before the build, instead of one failure per test.
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `The browser tests need Chromium, and there is none at ${CHROMIUM}. Install Debian's ` +
        '(apt-get install -y chromium), or point CHROMIUM_PATH at a Chromium or Chrome binary. ' +
        'The Node tests alone run without it: npx vitest run --project unit',
    );
  }
  await build({ logLevel: 'warn', configFile: 'vite.config.ts' });
  server = await preview({ configFile: 'vite.config.ts', preview: { host: '127.0.0.1', port: 0 } });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string')
    throw new Error('vite preview did not listen on a port');
  project.provide('appUrl', `http://127.0.0.1:${address.port}/`);
  return async () => {
    await server?.close();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    appUrl: string;
  }
}
