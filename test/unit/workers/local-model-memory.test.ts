// Local models in this tab's memory (workers/local-models/local-models.ts) on a backend in memory
// instead of OPFS and wllama: Load and Unload, the state Settings shows (loading: bytes read;
// loaded: threads and memory), one model at a time (loading one unloads the other, after its
// reply), unloading one left unused, and a load that fails for memory saying so. Also the pure
// parts: the memory estimate, split models' parts, and the sentences of the state.

import 'fake-indexeddb/auto';
import { describe, expect, it, vi } from 'vitest';
import type { BaseLlm } from '../../../src/index.ts';
import {
  modelParts,
  MAX_PART_BYTES,
  partName,
  splitPart,
} from '../../../src/models/local/gguf-split.ts';
import { contextCacheBytes } from '../../../src/models/local/local-memory.ts';
import { localModelStatusView } from '../../../src/ui/settings/local-model-status.ts';
import { AppRuntime } from '../../../workers/app.ts';
import {
  LocalModels,
  type LoadedLocalModel,
  type LocalModelBackend,
} from '../../../workers/local-models/local-models.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { collect, freshDbName, rejectionOf } from '../../support/helpers.ts';

/** Files in a map; a load reads the file in two halves, and may be held or made to fail. */
class MemoryBackend implements LocalModelBackend {
  readonly files = new Map<string, Blob[]>();
  readonly exited: string[] = [];
  failNext: Error | undefined;
  /** While set, a reply waits for it. */
  replyGate: Promise<void> | undefined;
  async save(id: string, file: Blob, part?: { no: number; count: number }) {
    const parts = this.files.get(id) ?? [];
    parts[(part?.no ?? 1) - 1] = file;
    this.files.set(id, parts);
  }
  async remove(id: string) {
    this.files.delete(id);
  }
  async load(id: string, onRead?: (read: number, total: number) => void) {
    const size = (this.files.get(id) ?? []).reduce((sum, file) => sum + file.size, 0);
    onRead?.(size / 2, size);
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = undefined;
      throw error;
    }
    onRead?.(size, size);
    const engine: LoadedLocalModel = {
      createChatCompletion: async ({ onData }) => {
        await this.replyGate;
        onData({ choices: [{ delta: { content: 'hi' }, finish_reason: 'stop' }] });
      },
      exit: async () => void this.exited.push(id),
      threads: 2,
      memory: { fileBytes: size, contextBytes: 1024, contextTokens: 4096 },
    };
    return engine;
  }
}

function open(options?: ConstructorParameters<typeof LocalModels>[1]) {
  const backend = new MemoryBackend();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => {},
    localModels: new LocalModels(backend, options),
  });
  return { runtime, backend };
}

const gguf = (name: string, bytes = 60) => new File(['GGUF', new Uint8Array(bytes)], name);
const ask = (model: BaseLlm) =>
  collect(model.generateContentAsync({ contents: [{ role: 'user', parts: [{ text: 'hello' }] }] }));

describe('local models in memory', () => {
  it('loads on Load, says how much memory, and unloads on Unload', async () => {
    const { runtime, backend } = open();
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    expect(runtime.providers.localStatus(info.id)).toEqual({ state: 'unloaded' });
    const loaded = await runtime.providers.loadLocal(info.id);
    expect(loaded).toMatchObject({
      state: 'loaded',
      threads: 2,
      memory: { fileBytes: 64, contextBytes: 1024, contextTokens: 4096 },
    });
    expect(await runtime.providers.unloadLocal(info.id)).toEqual({
      state: 'unloaded',
      note: 'Unloaded.',
    });
    expect(backend.exited).toEqual([info.id]);
    // The next message loads it again.
    const model = runtime.providers.model(await runtime.providers.record(info.id), 'tiny.gguf');
    await ask(model);
    expect(runtime.providers.localStatus(info.id).state).toBe('loaded');
  });

  it('keeps one local model loaded: loading another unloads the first, after its reply', async () => {
    const { runtime, backend } = open();
    const a = await runtime.providers.addLocal(gguf('a.gguf'));
    const b = await runtime.providers.addLocal(gguf('b.gguf'));
    const modelA = runtime.providers.model(await runtime.providers.record(a.id), 'a.gguf');
    await runtime.providers.loadLocal(a.id);
    let letGo!: () => void;
    backend.replyGate = new Promise((resolve) => (letGo = resolve));
    const replyA = ask(modelA);
    const loadB = runtime.providers.loadLocal(b.id);
    await new Promise((resolve) => setTimeout(resolve, 20));
    // A is still answering: it stays until its reply ends.
    expect(backend.exited).toEqual([]);
    backend.replyGate = undefined;
    letGo();
    await replyA;
    expect(await loadB).toMatchObject({ state: 'loaded' });
    expect(backend.exited).toEqual([a.id]);
    expect(runtime.providers.localStatus(a.id)).toEqual({
      state: 'unloaded',
      note: 'Unloaded to make room for b.',
    });
  });

  it('unloads a model left unused, counting from the end of its last reply', async () => {
    const { runtime, backend } = open({ idleUnloadMs: 10 * 60_000 });
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    const model = runtime.providers.model(await runtime.providers.record(info.id), 'tiny.gguf');
    vi.useFakeTimers();
    try {
      await runtime.providers.loadLocal(info.id);
      await vi.advanceTimersByTimeAsync(9 * 60_000);
      // A reply that lasts longer than the wait keeps it; the wait starts again after it.
      let letGo!: () => void;
      backend.replyGate = new Promise((resolve) => (letGo = resolve));
      const reply = ask(model);
      await vi.advanceTimersByTimeAsync(20 * 60_000);
      expect(runtime.providers.localStatus(info.id).state).toBe('loaded');
      letGo();
      await reply;
      await vi.advanceTimersByTimeAsync(9 * 60_000);
      expect(runtime.providers.localStatus(info.id).state).toBe('loaded');
      await vi.advanceTimersByTimeAsync(60_000);
      expect(runtime.providers.localStatus(info.id)).toEqual({
        state: 'unloaded',
        note: 'Unloaded after 10 minutes unused.',
      });
      expect(backend.exited).toEqual([info.id]);
    } finally {
      vi.useRealTimers();
    }
    // The next message loads it again.
    backend.replyGate = undefined;
    await ask(model);
    expect(runtime.providers.localStatus(info.id).state).toBe('loaded');
  });

  it('says so when a load fails for memory, and tries again on the next request', async () => {
    const { runtime, backend } = open();
    const info = await runtime.providers.addLocal(gguf('big.gguf'));
    backend.failNext = new RangeError('WebAssembly.Memory(): could not allocate memory');
    const error = await rejectionOf(runtime.providers.loadLocal(info.id));
    expect(error.name).toBe('ModelError');
    expect(error.message).toMatch(
      /^Not enough memory to load big \(64 B, and its context on top\)/,
    );
    expect(runtime.providers.localStatus(info.id)).toMatchObject({
      state: 'unloaded',
      note: expect.stringMatching(/^Not enough memory/),
    });
    expect(await runtime.providers.loadLocal(info.id)).toMatchObject({ state: 'loaded' });
  });

  it('reports the bytes read while loading', async () => {
    const models = new LocalModels({
      save: async () => {},
      remove: async () => {},
      load: (_id, onRead) =>
        new Promise(() => {
          onRead?.(30, 120);
        }),
    });
    const record = {
      id: 'x',
      kind: 'local-gguf' as const,
      name: 'x',
      baseUrl: '',
      defaultModel: 'x.gguf',
      localFile: { name: 'x.gguf', size: 120 },
      updatedAt: 0,
    };
    void models.load(record);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(models.status('x')).toMatchObject({ state: 'loading', read: 30, total: 120 });
  });

  it('adds a split model from all its parts, in order, and refuses a part alone', async () => {
    const { runtime, backend } = open();
    const parts = [2, 1, 3].map((no) => gguf(partName('qwen', no, 3), no));
    const info = await runtime.providers.addLocal(parts);
    expect(info).toMatchObject({
      name: 'qwen',
      localFile: { name: 'qwen-00001-of-00003.gguf', size: 3 * 4 + 6 },
    });
    expect(backend.files.get(info.id)!.map((file) => file.size)).toEqual([5, 6, 7]);
    const error = await rejectionOf(runtime.providers.addLocal(parts.slice(0, 2)));
    expect(error.message).toMatch(
      /^qwen is split into 3 parts: pick all of them, once each \(missing: qwen-00003-of-00003\.gguf\)/,
    );
  });
});

describe('split models', () => {
  it.each([
    ['model-00001-of-00003.gguf', { no: 1, count: 3, base: 'model' }],
    ['Qwen2.5-7B-Q4_K_M-00002-of-00002.gguf', { no: 2, count: 2, base: 'Qwen2.5-7B-Q4_K_M' }],
    ['model.gguf', undefined],
    ['model-00004-of-00003.gguf', undefined],
  ])('reads %s', (name, part) => expect(splitPart(name)).toEqual(part));

  it('refuses a file over the limit, saying how to split it', () => {
    const check = modelParts([{ name: 'llama-8b.gguf', size: MAX_PART_BYTES + 1 }]);
    expect(check).toEqual({
      problem: expect.stringMatching(/^llama-8b\.gguf is 2\.0 GB, larger than the 2\.0 GB/),
    });
    expect('problem' in check && check.problem).toMatch(/llama-gguf-split --split-max-size/);
  });

  it.each([
    [['a-00001-of-00002.gguf'], /is part 1 of a model split into 2 files: pick all 2 parts/],
    [['a-00001-of-00002.gguf', 'b-00002-of-00002.gguf'], /not the parts of one split model/],
    [['a.gguf', 'b.gguf'], /not the parts of one split model/],
    [
      ['a-00001-of-00002.gguf', 'a-00001-of-00002.gguf'],
      /pick all of them, once each \(missing: a-00002/,
    ],
  ])('refuses %j', (names, problem) => {
    const check = modelParts(names.map((name) => ({ name, size: 10 })));
    expect('problem' in check && check.problem).toMatch(problem);
  });
});

describe('the memory of a loaded model', () => {
  it('counts keys and values of every layer in f16, shared between grouped heads', () => {
    // Qwen2.5 0.5B: 24 layers, 896 wide, 14 heads sharing 2 key/value heads.
    const qwen = {
      hparams: { nEmbd: 896, nLayer: 24 },
      meta: {
        'general.architecture': 'qwen2',
        'qwen2.attention.head_count': '14',
        'qwen2.attention.head_count_kv': '2',
      },
    };
    expect(contextCacheBytes(qwen, 4096)).toBe(4096 * 24 * 2 * 128 * 2); // 48 MB
    // Without head counts: every head its own keys.
    expect(contextCacheBytes({ hparams: { nEmbd: 64, nLayer: 2 }, meta: {} }, 10)).toBe(
      10 * 2 * 2 * 64 * 2,
    );
  });
});

describe('what Settings says of a local model', () => {
  it.each([
    [
      { state: 'unloaded' as const, note: 'Unloaded to make room for b.' },
      'Unloaded to make room for b. Not loaded in this tab: it loads on an agent’s first message, or now with Load.',
    ],
    [
      { state: 'loading' as const, read: 512 * 1024 ** 2, total: 1024 ** 3, since: 0 },
      'Loading the model… 50% (512 MB of 1.0 GB read), 12 s.',
    ],
    [
      {
        state: 'loaded' as const,
        threads: 4,
        since: 0,
        loadSeconds: 3.25,
        memory: { fileBytes: 1024 ** 3, contextBytes: 48 * 1024 ** 2, contextTokens: 4096 },
      },
      'Loaded in this tab (4 threads), in 3.3 s. In memory: about 1.0 GB: the weights (the file, 1.0 GB) and the context cache for 4,096 tokens (48 MB), estimated from the model’s metadata.',
    ],
  ])('%j', (status, text) => {
    expect(localModelStatusView(status, 12_300).text).toBe(text);
  });
});
