// A page with nothing but wllama and its wasm (bundled by vite as the app bundles them), for
// test/e2e/wllama.test.ts: it loads a GGUF from a Blob and completes with it, raw or through
// LocalGgufModel, outside the app.

import { Wllama } from '@wllama/wllama/esm/index.js';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { LocalGgufModel } from '../../../src/models/local/local-gguf-model.ts';
import type { LlmRequest, LlmResponse } from '../../../src/models/llm.ts';

let wllama: Wllama | undefined;
let model: LocalGgufModel | undefined;

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
    await wllama.loadModel([new Blob([bytes])], { n_ctx: 1024, n_threads: threads, seed: 1 });
    model = new LocalGgufModel({ model: 'tiny.gguf', engine: wllama, maxTokens: 200 });
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
  /**
   * Every response LocalGgufModel streams for `request`; with `stopAfter`, Stop (an abort) after
   * that many partial responses, and then the error's name.
   */
  async generate(
    request: LlmRequest,
    stopAfter?: number,
  ): Promise<{ responses: LlmResponse[]; error?: string }> {
    if (!model) throw new Error('no model loaded');
    const responses: LlmResponse[] = [];
    const stop = new AbortController();
    try {
      for await (const response of model.generateContentAsync(request, true, {
        signal: stop.signal,
      })) {
        responses.push(response);
        if (stopAfter !== undefined && responses.length >= stopAfter) stop.abort();
      }
    } catch (error) {
      return { responses, error: (error as Error).name };
    }
    return { responses };
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
