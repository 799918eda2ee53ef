// wllama (llama.cpp in WebAssembly) with a GGUF file loaded, to chat or to embed: imported by
// local-models.ts (and local-embedder.ts) only when a local model first runs. wllama starts a Web Worker of its own for the model, so
// generating never blocks this worker's other sessions.

import { LoggerWithoutDebug, Wllama } from '@wllama/wllama/esm/index.js';
// Bundled by vite (and precached by the service worker), so a local model runs offline.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { readGgufFacts } from '../../src/models/local/gguf-metadata.ts';
import { contextToLoad } from '../../src/models/local/local-context.ts';
import { localModelMemory } from '../../src/models/local/local-memory.ts';
import { localThreads } from '../../src/models/local/local-threads.ts';
import type { LoadedLocalModel } from './backend.ts';

/**
 * Loads the model from its files (the parts of a split model in order). `onRead` is told how many
 * bytes of them wllama has read so far: loading is mostly reading the file into memory, and
 * wllama has no progress callback for blobs, so the files it is given count what it reads. The
 * context is the user's `contextTokens`, else the model's own capped (local-context.ts), read
 * from the file's header first.
 */
export async function loadLocalEngine(
  files: File[],
  onRead: (bytes: number) => void,
  contextTokens?: number,
  { embeddings = false }: { embeddings?: boolean } = {},
): Promise<LoadedLocalModel> {
  const facts = await readGgufFacts(files[0]!);
  const context = contextToLoad(facts, contextTokens);
  // An embedding model's file says how it pools its tokens into one vector; a model that does
  // not (a chat model used for embeddings) is averaged. llama.cpp embeds a text in one physical
  // batch, so the batch is the whole context.
  const arch = facts?.meta['general.architecture'];
  const embedding = embeddings
    ? ({
        embeddings: true,
        pooling_type: facts?.meta[`${arch}.pooling_type`] !== undefined ? 'unspecified' : 'mean',
        n_batch: context,
        n_ubatch: context,
      } as const)
    : {};
  const wllama = new Wllama(
    { default: wasmUrl },
    { suppressNativeLog: true, logger: embeddings ? EMBEDDING_LOGGER : LoggerWithoutDebug },
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
      { n_ctx: context, n_threads: threads, ...embedding },
    );
  } catch (error) {
    // Whatever it allocated before failing goes with its worker.
    await wllama.exit().catch(() => undefined);
    throw error;
  }
  const size = files.reduce((sum, file) => sum + file.size, 0);
  // llama.cpp cuts a request's context to the one the model was trained for.
  const { n_ctx: loaded, n_ctx_train: own } = wllama.getLoadedContextInfo();
  return Object.assign(wllama, {
    memory: localModelMemory(wllama.getModelMetadata(), size, loaded),
    threads: wllama.isMultithread() ? threads : 1,
    contextTokens: own > 0 ? Math.min(loaded, own) : loaded,
    ...(own > 0 ? { modelContextTokens: own } : {}),
  });
}

/**
 * An embedding model's errors are thrown to the embedder, which handles them (a text too long is
 * cut and embedded again: local-embedder.ts): wllama's logging them too would only alarm.
 */
const EMBEDDING_LOGGER = {
  ...LoggerWithoutDebug,
  error: (...args: unknown[]) => {
    if (!String(args[0]).startsWith('Model returned an error')) console.error(...args);
  },
};

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
