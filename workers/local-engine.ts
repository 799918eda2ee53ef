// wllama (llama.cpp in WebAssembly) with a GGUF file loaded: imported by local-models.ts only
// when a local model first runs. wllama starts a Web Worker of its own for the model, so
// generating never blocks this worker's other sessions.

import { LoggerWithoutDebug, Wllama } from '@wllama/wllama/esm/index.js';
// Bundled by vite (and precached by the service worker), so a local model runs offline.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { localModelMemory } from '../src/models/local/local-memory.ts';
import { localThreads } from '../src/models/local/local-threads.ts';
import type { LoadedLocalModel } from './local-models.ts';

/** Tokens of context: room for a conversation with tool results, within a small model's memory. */
export const CONTEXT_TOKENS = 4096;

/**
 * Loads the model from its files (the parts of a split model in order). `onRead` is told how many
 * bytes of them wllama has read so far: loading is mostly reading the file into memory, and
 * wllama has no progress callback for blobs, so the files it is given count what it reads.
 */
export async function loadLocalEngine(
  files: File[],
  onRead: (bytes: number) => void,
): Promise<LoadedLocalModel> {
  const wllama = new Wllama(
    { default: wasmUrl },
    { suppressNativeLog: true, logger: LoggerWithoutDebug },
  );
  // Compat mode fetches other builds from a CDN for Safari; the app must work offline.
  wllama.setCompat(null);
  // Settings → Providers says how many threads, and why, from the same function.
  const { threads } = localThreads(self.crossOriginIsolated, navigator.hardwareConcurrency || 1);
  let read = 0;
  const count = (bytes: number) => onRead((read += bytes));
  try {
    await wllama.loadModel(
      files.map((file) => countedFile(file, count)),
      { n_ctx: CONTEXT_TOKENS, n_threads: threads },
    );
  } catch (error) {
    // Whatever it allocated before failing goes with its worker.
    await wllama.exit().catch(() => undefined);
    throw error;
  }
  const size = files.reduce((sum, file) => sum + file.size, 0);
  return Object.assign(wllama, {
    memory: localModelMemory(wllama.getModelMetadata(), size, CONTEXT_TOKENS),
    threads: wllama.isMultithread() ? threads : 1,
  });
}

/**
 * The same file, counting what is read of it. wllama reads a model file either in slices
 * (`slice().arrayBuffer()`, when the browser can suspend WebAssembly for it) or whole as a stream
 * (`stream()`, copied into memory): both are counted, as they are read.
 */
function countedFile(file: File, onRead: (bytes: number) => void): File {
  return new (class extends File {
    override slice(start?: number, end?: number, contentType?: string): Blob {
      const part = super.slice(start, end, contentType);
      const arrayBuffer = part.arrayBuffer.bind(part);
      return Object.assign(part, {
        arrayBuffer: async () => {
          const buffer = await arrayBuffer();
          onRead(buffer.byteLength);
          return buffer;
        },
      });
    }
    override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
      return super.stream().pipeThrough(
        new TransformStream<Uint8Array<ArrayBuffer>, Uint8Array<ArrayBuffer>>({
          transform(chunk, controller) {
            onRead(chunk.byteLength);
            controller.enqueue(chunk);
          },
        }),
      );
    }
  })([file], file.name, { type: file.type, lastModified: file.lastModified });
}
