// Add a local model by URL, in the worker: the file is fetched straight into the Origin Private
// File System, chunk by chunk, through a sync access handle (a dedicated worker's direct writes:
// what was written stays written, even if the tab is closed mid-download). The partial file is
// named after the URL, so a later Download of the same URL asks only for the rest
// (`Range: bytes=<size>-`); a server that ignores Range (200) sends the whole file again.
//
// What must stay true:
// - the file is never whole in memory: each chunk is written as it comes;
// - a finished file that is not GGUF is deleted, and gives no provider;
// - an interrupted download keeps its partial file (that is what resuming needs).

import { InvalidRequestError, StorageFullError } from '../../src/core/errors.ts';
import type { LocalModelFile } from './backend.ts';

export interface DownloadProgress {
  url: string;
  received: number;
  /** From Content-Length; unknown when the server does not send it. */
  total?: number;
}

/** The part of the sync access handle this file uses (DOM's types do not declare it). */
interface SyncAccess {
  getSize(): number;
  truncate(size: number): void;
  write(data: Uint8Array, options: { at: number }): number;
  read(data: Uint8Array, options: { at: number }): number;
  flush(): void;
  close(): void;
}

/** At most this often, so thousands of chunks do not become thousands of messages. */
const PROGRESS_EVERY_MS = 200;

export class LocalDownloads {
  private readonly running = new Map<string, AbortController>();

  constructor(private readonly directory: () => Promise<FileSystemDirectoryHandle>) {}

  /**
   * Downloads `url` (continuing a partial download of it) and renames the finished file
   * `target` (`<id>.gguf`, or a part's name for a split model), after checking that it is GGUF.
   */
  async download(
    id: string,
    url: string,
    onProgress: (progress: DownloadProgress) => void,
    target = `${id}.gguf`,
  ): Promise<LocalModelFile> {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new InvalidRequestError(`“${url}” is not a URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
      throw new InvalidRequestError('The model URL must start with https:// or http://');
    if (this.running.has(url)) throw new InvalidRequestError('This URL is already downloading');
    const controller = new AbortController();
    this.running.set(url, controller);
    const directory = await this.directory();
    const partName = `download-${await digest(url)}.part`;
    try {
      const handle = await directory.getFileHandle(partName, { create: true });
      const access = (await (
        handle as unknown as { createSyncAccessHandle(): Promise<SyncAccess> }
      ).createSyncAccessHandle()) as SyncAccess;
      let size: number;
      try {
        size = await fetchInto(url, access, controller.signal, onProgress);
        if (!isGguf(access)) {
          access.close();
          await directory.removeEntry(partName);
          throw new InvalidRequestError(
            `${url} is not a GGUF model file (it does not start with "GGUF")`,
          );
        }
      } finally {
        access.close(); // closing twice is harmless
      }
      await (handle as unknown as { move(name: string): Promise<void> }).move(target);
      return { name: fileName(parsed), size };
    } catch (error) {
      if ((error as Error).name === 'QuotaExceededError')
        throw new StorageFullError({ cause: error });
      throw error;
    } finally {
      this.running.delete(url);
    }
  }

  /** Stops the download of `url`; its partial file stays, for the next Download. */
  cancel(url: string): void {
    this.running.get(url)?.abort();
  }
}

async function fetchInto(
  url: string,
  access: SyncAccess,
  signal: AbortSignal,
  onProgress: (progress: DownloadProgress) => void,
): Promise<number> {
  let offset = access.getSize();
  let response: Response;
  try {
    response = await fetch(url, {
      signal,
      ...(offset > 0 ? { headers: { Range: `bytes=${offset}-` } } : {}),
    });
  } catch (error) {
    throw interrupted(url, error, signal);
  }
  if (response.status === 416 && offset > 0) {
    // Nothing after the end: the partial file was already whole.
    onProgress({ url, received: offset, total: offset });
    return offset;
  }
  if (!response.ok)
    throw new InvalidRequestError(
      `The server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''} for ${url}`,
    );
  if (response.status !== 206) {
    // The server ignored Range: what comes is the whole file.
    offset = 0;
    access.truncate(0);
  }
  const length = Number(response.headers.get('Content-Length'));
  const total = length > 0 ? offset + length : undefined;
  const report = () => onProgress({ url, received: offset, ...(total ? { total } : {}) });
  report();
  let reported = Date.now();
  if (!response.body) return offset;
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      offset += access.write(value, { at: offset });
      if (Date.now() - reported >= PROGRESS_EVERY_MS) {
        report();
        reported = Date.now();
      }
    }
  } catch (error) {
    throw interrupted(url, error, signal);
  } finally {
    access.flush();
  }
  report();
  return offset;
}

function interrupted(url: string, error: unknown, signal: AbortSignal): Error {
  if (signal.aborted)
    return new InvalidRequestError(
      'Download cancelled. What was downloaded is kept: Download the same URL again to continue it.',
    );
  return new InvalidRequestError(
    `Could not download ${url}: the network failed, or the server does not allow this page’s ` +
      'origin (it must send Access-Control-Allow-Origin). What was downloaded is kept: ' +
      'Download the same URL again to continue it.',
    { cause: error },
  );
}

function isGguf(access: SyncAccess): boolean {
  const magic = new Uint8Array(4);
  access.read(magic, { at: 0 });
  return new TextDecoder().decode(magic) === 'GGUF';
}

/** The last part of the URL's path, which for a model file is its name. */
function fileName(url: URL): string {
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  return (last || 'model.gguf').slice(0, 200);
}

async function digest(text: string): Promise<string> {
  const hash = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(hash).slice(0, 12)]
    .map((b) => b.toString(16).padStart(2, '0'))
    .join('');
}
