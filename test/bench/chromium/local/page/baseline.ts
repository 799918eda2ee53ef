// The baseline of the local model bench (test/bench/local-model.bench.ts): wllama alone, in a page
// of its own, loaded as the app's worker loads it (workers/local-models/engine.ts: the same wasm,
// context, threads and logger) and asked as LocalGgufModel asks it (a streamed chat completion with
// the same messages, temperature and length). Each streamed chunk is timed as it comes. A second
// wllama in this page runs LocalGgufModel itself, with no worker, runner or chat around it: what
// the model class alone costs.

import { LoggerWithoutDebug, Wllama } from '@wllama/wllama/esm/index.js';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import {
  LocalGgufModel,
  type LocalChatChunk,
  type LocalChatMessage,
} from '../../../../../src/models/local/local-gguf-model.ts';

/** A completion as this page saw it: times on the page's clock, from the call. */
export interface BaselineSample {
  /** The call → each chunk that carried text, in order. */
  chunkMs: number[];
  /** Characters of text by then (one a token, with the bench's model). */
  chars: number[];
  text: string;
  /** llama.cpp's own timings, from the last chunk. */
  timings?: {
    prompt_n: number;
    cache_n: number;
    predicted_n: number;
    prompt_ms?: number;
    predicted_ms?: number;
  };
}

let wllama: Wllama | undefined;
/** A second wllama for LocalGgufModel in this page, so that each keeps its own KV cache. */
let model: LocalGgufModel | undefined;

async function loadWllama(file: File, threads: number, contextTokens: number): Promise<Wllama> {
  const loaded = new Wllama(
    { default: wasmUrl },
    { suppressNativeLog: true, logger: LoggerWithoutDebug },
  );
  loaded.setCompat(null);
  await loaded.loadModel([file], { n_ctx: contextTokens, n_threads: threads });
  return loaded;
}

const bench = {
  /** Loads the file picked in #model with `threads` threads and `contextTokens` of context. */
  async load(
    threads: number,
    contextTokens: number,
  ): Promise<{ multithread: boolean; threads: number }> {
    const file = (document.getElementById('model') as HTMLInputElement).files?.[0];
    if (!file) throw new Error('no model file picked');
    wllama = await loadWllama(file, threads, contextTokens);
    const engine = await loadWllama(file, threads, contextTokens);
    model = new LocalGgufModel({ model: file.name, engine });
    return { multithread: wllama.isMultithread(), threads: wllama.getNumThreads() };
  },

  async chat(
    messages: LocalChatMessage[],
    maxTokens: number,
    temperature: number,
  ): Promise<BaselineSample> {
    if (!wllama) throw new Error('no model loaded');
    const sample: BaselineSample = { chunkMs: [], chars: [], text: '' };
    const start = performance.now();
    await wllama.createChatCompletion({
      messages,
      stream: true,
      max_tokens: maxTokens,
      temperature,
      onData: (chunk: LocalChatChunk) => {
        const at = performance.now() - start;
        const delta = chunk.choices[0]?.delta.content ?? '';
        if (chunk.timings) sample.timings = chunk.timings;
        if (!delta) return;
        sample.text += delta;
        sample.chunkMs.push(at);
        sample.chars.push(sample.text.length);
      },
    });
    return sample;
  },

  /**
   * The same messages through LocalGgufModel (its defaults, as the app's), in this page: no
   * worker, runner or chat between it and wllama. Each streamed text response is timed.
   */
  async model(system: string, user: string): Promise<BaselineSample> {
    if (!model) throw new Error('no model loaded');
    const sample: BaselineSample = { chunkMs: [], chars: [], text: '' };
    const start = performance.now();
    const request = {
      systemInstruction: system,
      contents: [{ role: 'user' as const, parts: [{ text: user }] }],
    };
    for await (const response of model.generateContentAsync(request, true)) {
      if (!response.partial) continue;
      sample.text += response.content?.parts[0]?.text ?? '';
      sample.chunkMs.push(performance.now() - start);
      sample.chars.push(sample.text.length);
    }
    return sample;
  },
};

declare global {
  interface Window {
    localBaseline: typeof bench;
  }
}
window.localBaseline = bench;
