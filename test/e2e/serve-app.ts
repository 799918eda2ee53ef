// Global setup of the browser tests: build the app and serve it with `vite preview` on
// 127.0.0.1, as a user would run it.

import { build, preview, type PreviewServer } from 'vite';
import type { TestProject } from 'vitest/node';

let server: PreviewServer | undefined;

export default async function serveApp(project: TestProject) {
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
