// LocalEmbedders (a local GGUF's embeddings) on a backend in memory instead of OPFS and wllama:
// lazy loading with embeddings on, calls one at a time, Stop, idle and asked-for unloading,
// texts cut to the context, and answers checked. The real wllama is in test/e2e/local-embedder.

import { describe, expect, it } from 'vitest';
import type { LoadedLocalModel, LocalModelBackend } from '../../../workers/local-models/backend.ts';
import { LocalEmbedders } from '../../../workers/local-models/local-embedder.ts';
import { deferred, rejectionOf } from '../../support/helpers.ts';
import { fakeEmbedding } from '../../support/model-embeddings.ts';

type Answer = { data: { index: number; embedding: number[] | string }[] };

const answerOf = (text: string): Answer => ({
  data: [{ index: 0, embedding: fakeEmbedding(text) }],
});

class EmbeddingBackend implements LocalModelBackend {
  loads: { id: string; embeddings?: boolean }[] = [];
  exits = 0;
  /** The text of each wllama call, in order. */
  calls: string[] = [];
  /** When set, each call waits for it. */
  held: Promise<void> | undefined;
  failLoad: Error | undefined;
  /** Texts longer than this many characters fail as llama.cpp fails them. */
  maxChars = Infinity;
  answer: (input: string) => Answer = answerOf;
  async save() {}
  async remove() {}
  async load(id: string, _onRead?: unknown, options: { embeddings?: boolean } = {}) {
    this.loads.push({ id, ...options });
    if (this.failLoad) throw this.failLoad;
    const engine: LoadedLocalModel = {
      contextTokens: 100,
      createChatCompletion: async () => {},
      createEmbedding: async ({ input }) => {
        this.calls.push(input);
        await this.held;
        if (input.length > this.maxChars)
          throw new Error('input is too large to process. increase the physical batch size');
        return this.answer(input);
      },
      exit: async () => void this.exits++,
    };
    return engine;
  }
}

const provider = { id: 'tiny', name: 'Tiny', defaultModel: 'tiny.gguf' };
const texts = (n: number) => Array.from({ length: n }, (_, i) => `text ${i}`);

describe('LocalEmbedders', () => {
  it('loads the model with embeddings on at the first texts, once, and keys it', async () => {
    const backend = new EmbeddingBackend();
    const embedders = new LocalEmbedders(backend);
    const embedder = embedders.embedder(provider);
    expect(embedder.key).toBe('tiny/tiny.gguf');
    expect(embedders.embedder(provider, 'other').key).toBe('tiny/other');
    expect(backend.loads).toEqual([]);
    const input = texts(40);
    expect(await embedder.embed(input)).toEqual(input.map(fakeEmbedding));
    expect(await embedder.embed(['again'])).toEqual([fakeEmbedding('again')]);
    expect(backend.loads).toEqual([{ id: 'tiny', embeddings: true }]);
    expect(embedder.batchSize).toBe(16);
    // A text per wllama call (wllama 3.8 answers an array with one vector only).
    expect(backend.calls).toEqual([...input, 'again']);
    await embedders.unloadAll();
  });

  it('stops at once on abort; the call in progress ends first, one that waits never starts', async () => {
    const backend = new EmbeddingBackend();
    const embedder = new LocalEmbedders(backend).embedder(provider);
    const hold = deferred();
    backend.held = hold.promise;
    const first = new AbortController();
    const second = new AbortController();
    const running = embedder.embed(['one'], { signal: first.signal });
    const waiting = embedder.embed(['two'], { signal: second.signal });
    const after = embedder.embed(['three']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    first.abort();
    second.abort();
    expect((await rejectionOf(running)).name).toBe('AbortError');
    expect((await rejectionOf(waiting)).name).toBe('AbortError');
    hold.resolve();
    expect(await after).toEqual([fakeEmbedding('three')]);
    expect(backend.calls).toEqual(['one', 'three']);
    const already = await rejectionOf(embedder.embed(['x'], { signal: AbortSignal.abort() }));
    expect(already.name).toBe('AbortError');
  });

  it('unloads when unused for a while, and when asked after the call in progress', async () => {
    const backend = new EmbeddingBackend();
    const embedders = new LocalEmbedders(backend, { idleUnloadMs: 30 });
    const embedder = embedders.embedder(provider);
    await embedder.embed(['a']);
    expect(embedders.isLoaded('tiny')).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(embedders.isLoaded('tiny')).toBe(false);
    expect(backend.exits).toBe(1);

    const hold = deferred();
    backend.held = hold.promise;
    const running = embedder.embed(['b']);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const unloaded = embedders.unload('tiny');
    hold.resolve();
    expect(await running).toEqual([fakeEmbedding('b')]);
    await unloaded;
    expect(backend.exits).toBe(2);
    expect(backend.loads).toHaveLength(2);
  });

  it('says why a load failed, and loads again at the next texts', async () => {
    const backend = new EmbeddingBackend();
    const embedder = new LocalEmbedders(backend).embedder(provider);
    backend.failLoad = new Error('bad magic');
    const error = await rejectionOf(embedder.embed(['a']));
    expect(error.message).toBe('Could not load Tiny: bad magic');
    backend.failLoad = undefined;
    expect(await embedder.embed(['a'])).toEqual([fakeEmbedding('a')]);
  });

  it('cuts a text longer than the context, halving it until it fits', async () => {
    const backend = new EmbeddingBackend();
    backend.maxChars = 100;
    const embedder = new LocalEmbedders(backend).embedder(provider);
    const [vector] = await embedder.embed(['x'.repeat(5000)]);
    // 100 tokens × 3 characters, then halved: 150, then 75.
    expect(backend.calls.map((call) => call.length)).toEqual([300, 150, 75]);
    expect(vector).toEqual(fakeEmbedding('x'.repeat(75)));
  });

  it('rejects an answer that does not fit the texts, naming the model', async () => {
    const backend = new EmbeddingBackend();
    const embedder = new LocalEmbedders(backend).embedder(provider);
    backend.answer = (input) => ({ data: [...answerOf(input).data, ...answerOf(input).data] });
    const error = await rejectionOf(embedder.embed(['a', 'b']));
    expect(error.message).toMatch(/^Tiny sent 2 vectors for a text/);
    backend.answer = () => ({ data: [{ index: 0, embedding: 'AAAA' }] });
    expect((await rejectionOf(embedder.embed(['a']))).message).toMatch(/not a list of numbers/);
  });

  it('says when the model fails to embed', async () => {
    const backend = new EmbeddingBackend();
    const embedder = new LocalEmbedders(backend).embedder(provider);
    backend.answer = () => {
      throw new Error('Model failed to start inference');
    };
    const error = await rejectionOf(embedder.embed(['a']));
    expect(error.message).toBe('Tiny could not embed the texts: Model failed to start inference');
  });
});
