// A page with nothing but the local embedder (workers/local-models/local-embedder.ts) over OPFS
// and wllama, bundled by vite as the app bundles them, for test/e2e/local-embedder.test.ts.

import { LocalEmbedders } from '../../../workers/local-models/local-embedder.ts';
import { opfsBackend } from '../../../workers/local-models/opfs.ts';

const provider = { id: 'tiny-embed', name: 'Tiny', defaultModel: 'tiny.gguf' };
const embedders = new LocalEmbedders(opfsBackend);
const embedder = embedders.embedder(provider);

const harness = {
  /** Keeps the model (base64 bytes: what page.evaluate can carry) in OPFS, as the app does. */
  async save(base64: string): Promise<void> {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    await opfsBackend.save(provider.id, new Blob([bytes]));
  },
  async embed(texts: string[]): Promise<{ vectors?: number[][]; error?: string; ms: number }> {
    const started = performance.now();
    try {
      return { vectors: await embedder.embed(texts), ms: performance.now() - started };
    } catch (error) {
      return { error: `${(error as Error).name}: ${(error as Error).message}`, ms: 0 };
    }
  },
  /** Embeds `texts`, Stops after `afterMs`; the error's name and how long Stop took to end it. */
  async stop(texts: string[], afterMs: number): Promise<{ error?: string; stopMs: number }> {
    const stop = new AbortController();
    let stoppedAt = 0;
    setTimeout(() => {
      stoppedAt = performance.now();
      stop.abort();
    }, afterMs);
    try {
      await embedder.embed(texts, { signal: stop.signal });
      return { stopMs: -1 };
    } catch (error) {
      return { error: (error as Error).name, stopMs: performance.now() - stoppedAt };
    }
  },
  isLoaded: () => embedders.isLoaded(provider.id),
  unload: () => embedders.unload(provider.id),
};

declare global {
  interface Window {
    embedderHarness: typeof harness;
  }
}
window.embedderHarness = harness;
