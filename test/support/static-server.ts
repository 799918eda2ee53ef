// A plain static host for the built app (dist/), on 127.0.0.1, as GitHub Pages or a bucket would
// be: the files with their content types, index.html for any other path, and no headers of its
// own: no Content-Security-Policy, no Cross-Origin-Opener-Policy, no Cross-Origin-Embedder-Policy.

import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.map': 'application/json',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

export async function serveStatic(root: string): Promise<StaticServer> {
  const server = createServer((request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname));
    const file = join(root, path.endsWith('/') ? `${path}index.html` : path);
    const send = (name: string, body: Buffer) => {
      response.writeHead(200, {
        'Content-Type': TYPES[extname(name)] ?? 'application/octet-stream',
      });
      response.end(body);
    };
    void (async () => {
      try {
        send(file, await readFile(file));
      } catch {
        // An address of the app's own (it routes on the client), as static hosts are set up.
        if (extname(path)) response.writeHead(404).end('Not found');
        else send('index.html', await readFile(join(root, 'index.html')));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
