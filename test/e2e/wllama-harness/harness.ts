// A page with nothing but wllama and its wasm (bundled by vite as the app bundles them), for
// test/e2e/wllama.test.ts to load a GGUF from a Blob and complete with it, outside the app.

import { Wllama } from '@wllama/wllama/esm/index.js';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';

let wllama: Wllama | undefined;

const harness = {
  /** Loads the model from base64 bytes (what page.evaluate can carry). */
  async load(
    base64: string,
    threads: number,
  ): Promise<{ multithread: boolean; template: string | null }> {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true });
    // Compat mode fetches other builds from a CDN (for Safari); this page has no internet.
    wllama.setCompat(null);
    await wllama.loadModel([new Blob([bytes])], { n_ctx: 512, n_threads: threads, seed: 1 });
    return { multithread: wllama.isMultithread(), template: wllama.getChatTemplate() };
  },
  async complete(prompt: string, maxTokens: number, grammar?: string): Promise<string> {
    if (!wllama) throw new Error('no model loaded');
    const result = await wllama.createCompletion({
      prompt,
      max_tokens: maxTokens,
      temperature: 0.8,
      seed: 1,
      ...(grammar ? { grammar } : {}),
    });
    return result.choices[0]?.text ?? '';
  },
  async exit(): Promise<void> {
    await wllama?.exit();
    wllama = undefined;
  },
};

declare global {
  interface Window {
    wllamaHarness: typeof harness;
  }
}
window.wllamaHarness = harness;
