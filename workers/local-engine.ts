// wllama (llama.cpp in WebAssembly) with a GGUF file loaded: imported by local-models.ts only
// when a local model first runs. wllama starts a Web Worker of its own for the model, so
// generating never blocks this worker's other sessions.

import { LoggerWithoutDebug, Wllama } from '@wllama/wllama/esm/index.js';
// Bundled by vite (and precached by the service worker), so a local model runs offline.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { localThreads } from '../src/models/local/local-threads.ts';

/** Tokens of context: room for a conversation with tool results, within a small model's memory. */
const CONTEXT_TOKENS = 4096;

export async function loadLocalEngine(file: Blob): Promise<Wllama> {
  const wllama = new Wllama(
    { default: wasmUrl },
    { suppressNativeLog: true, logger: LoggerWithoutDebug },
  );
  // Compat mode fetches other builds from a CDN for Safari; the app must work offline.
  wllama.setCompat(null);
  // Settings → Providers says how many threads, and why, from the same function.
  const { threads } = localThreads(self.crossOriginIsolated, navigator.hardwareConcurrency || 1);
  await wllama.loadModel([file], { n_ctx: CONTEXT_TOKENS, n_threads: threads });
  return wllama;
}
