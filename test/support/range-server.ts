// A file server for download tests, on 127.0.0.1: CORS for any origin, `Range: bytes=N-`
// (206), a log of the Range headers it got, 404 for any other path, and `cutAfter(n)`: the next
// answer sends n bytes of the file and then drops the connection, as a failing network does.
// Bytes go out in small slices with a pause, so a browser sees the download in progress.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RangeServer {
  /** The file's URL. */
  url: string;
  origin: string;
  /** The Range header of each GET of the file ('' when it had none). */
  ranges: string[];
  cutAfter(bytes: number): void;
  close(): Promise<void>;
}

const SLICE = 1024;
const PAUSE_MS = 15;

export async function serveFile(path: string, body: Uint8Array): Promise<RangeServer> {
  const ranges: string[] = [];
  let cut: number | undefined;
  const server: Server = createServer((request, response) => {
    response.setHeader('Access-Control-Allow-Origin', '*');
    response.setHeader('Access-Control-Allow-Headers', 'Range');
    response.setHeader('Access-Control-Expose-Headers', 'Content-Range, Content-Length');
    if (request.method === 'OPTIONS') return void response.writeHead(204).end();
    if (request.url !== path) return void response.writeHead(404).end('Not found');
    const range = request.headers.range ?? '';
    ranges.push(range);
    const start = Number(/^bytes=(\d+)-$/.exec(range)?.[1] ?? 0);
    if (start >= body.length && range)
      return void response.writeHead(416, { 'Content-Range': `bytes */${body.length}` }).end();
    const rest = body.subarray(start);
    response.writeHead(range ? 206 : 200, {
      'Content-Type': 'application/octet-stream',
      'Content-Length': String(rest.length),
      ...(range ? { 'Content-Range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
    });
    const stopAt = cut;
    cut = undefined;
    void (async () => {
      for (let sent = 0; sent < rest.length;) {
        const end = Math.min(sent + SLICE, rest.length, stopAt ?? Infinity);
        if (end <= sent) {
          // Headers promised the whole rest: the browser sees a broken download.
          response.socket?.destroy();
          return;
        }
        response.write(rest.subarray(sent, end));
        sent = end;
        await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
      }
      response.end();
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${origin}${path}`,
    origin,
    ranges,
    cutAfter: (bytes) => void (cut = bytes),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
