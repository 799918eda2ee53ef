// Settings → Providers → Add local model, in the runtime the worker runs (Node over
// fake-indexeddb), on a backend in memory instead of OPFS and wllama: the file is checked and
// kept once, the provider shows its name and size, agents get its one model, renaming keeps
// the file, and deleting the provider deletes the file.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { LocalChatEngine } from '../../src/index.ts';
import { AppRuntime } from '../../workers/app-runtime.ts';
import { LocalModels, type LocalModelBackend } from '../../workers/local-models.ts';
import { inProcessLocks } from '../../workers/session-locks.ts';
import { collect, freshDbName, rejectionOf } from '../support/helpers.ts';

class MemoryBackend implements LocalModelBackend {
  readonly files = new Map<string, Blob>();
  loads = 0;
  exits = 0;
  /** When set, a load reads half the file, then waits for it. */
  held: Promise<void> | undefined;
  async save(id: string, file: Blob) {
    this.files.set(id, file);
  }
  async remove(id: string) {
    this.files.delete(id);
  }
  async load(id: string, onRead?: (read: number, total: number) => void) {
    const file = this.files.get(id);
    if (!file) throw new Error(`no file ${id}`);
    this.loads++;
    if (this.held) {
      onRead?.(file.size / 2, file.size);
      await this.held;
    }
    const engine: LocalChatEngine & { exit(): Promise<void> } = {
      createChatCompletion: async ({ onData }) =>
        onData({ choices: [{ delta: { content: 'hello' }, finish_reason: 'stop' }] }),
      exit: async () => void this.exits++,
    };
    return engine;
  }
}

function open() {
  const backend = new MemoryBackend();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => {},
    localModels: new LocalModels(backend),
  });
  return { runtime, backend };
}

const gguf = (name: string) => new File(['GGUF', new Uint8Array(60)], name);

describe('local models in the app', () => {
  it('keeps the file once and lists a provider with its name and size', async () => {
    const { runtime, backend } = open();
    const info = await runtime.providers.addLocal(gguf('qwen2.5-0.5b-instruct-q4_k_m.gguf'));
    expect(info).toMatchObject({
      kind: 'local-gguf',
      name: 'qwen2.5-0.5b-instruct-q4_k_m',
      defaultModel: 'qwen2.5-0.5b-instruct-q4_k_m.gguf',
      localFile: { name: 'qwen2.5-0.5b-instruct-q4_k_m.gguf', size: 64 },
    });
    expect([...backend.files.keys()]).toEqual([info.id]);
    expect(await runtime.providers.models(info.id)).toEqual({
      ok: true,
      models: ['qwen2.5-0.5b-instruct-q4_k_m.gguf'],
    });
    const again = await runtime.providers.addLocal(gguf('qwen2.5-0.5b-instruct-q4_k_m.gguf'));
    expect(again.name).toBe('qwen2.5-0.5b-instruct-q4_k_m 2');
  });

  it('refuses a file that is not GGUF, and keeps nothing of it', async () => {
    const { runtime, backend } = open();
    const error = await rejectionOf(runtime.providers.addLocal(new File(['<html>'], 'x.gguf')));
    expect(error.message).toMatch(/x\.gguf is not a GGUF model file/);
    expect(backend.files.size).toBe(0);
    expect(await runtime.providers.list()).toEqual([]);
  });

  it('gives agents one model per provider, loaded once; a rename keeps the file', async () => {
    const { runtime, backend } = open();
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    const record = await runtime.providers.record(info.id);
    const model = runtime.providers.model(record, 'tiny.gguf');
    expect(runtime.providers.model(record, 'tiny.gguf')).toBe(model);
    for (const text of ['a', 'b'])
      await collect(
        model.generateContentAsync({ contents: [{ role: 'user', parts: [{ text }] }] }),
      );
    expect(backend.loads).toBe(1);

    const renamed = await runtime.providers.save({
      id: info.id,
      kind: 'local-gguf',
      name: 'My tiny model',
      baseUrl: '',
      defaultModel: '',
    });
    expect(renamed).toMatchObject({ name: 'My tiny model', localFile: { name: 'tiny.gguf' } });
    expect(renamed.defaultModel).toBe('tiny.gguf');
  });

  it('says which model is loading, and how far, while a turn waits for it', async () => {
    const { runtime, backend } = open();
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    const model = runtime.providers.model(await runtime.providers.record(info.id), 'tiny.gguf');
    expect(runtime.providers.localLoads()).toEqual([]);
    let release!: () => void;
    backend.held = new Promise((resolve) => (release = resolve));
    const before = Date.now();
    const answer = collect(
      model.generateContentAsync({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
    );
    await expect.poll(() => runtime.providers.localLoads()[0]?.read).toBe(32);
    const [load] = runtime.providers.localLoads();
    expect(load).toEqual({
      providerId: info.id,
      name: 'tiny',
      read: 32,
      total: 64,
      since: expect.any(Number),
    });
    expect(load!.since).toBeGreaterThanOrEqual(before);
    release();
    await answer;
    expect(runtime.providers.localLoads()).toEqual([]);
  });

  it('deletes the file and unloads the model with the provider', async () => {
    const { runtime, backend } = open();
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    const model = runtime.providers.model(await runtime.providers.record(info.id), 'tiny.gguf');
    await collect(
      model.generateContentAsync({ contents: [{ role: 'user', parts: [{ text: 'a' }] }] }),
    );
    await runtime.providers.remove(info.id);
    expect(backend.files.size).toBe(0);
    expect(backend.exits).toBe(1);
    expect(await runtime.providers.list()).toEqual([]);
  });

  it('cannot be made from a form without its file', async () => {
    const { runtime } = open();
    const error = await rejectionOf(
      runtime.providers.save({ kind: 'local-gguf', name: 'x', baseUrl: '', defaultModel: 'x' }),
    );
    expect(error.message).toMatch(/A local model is added from its \.gguf file/);
  });

  it('exports an agent on a local model, imports it where the file is, refuses it elsewhere', async () => {
    const { runtime } = open();
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    const { saved } = await runtime.agentSpecs.save({
      name: 'calc',
      description: '',
      providerId: info.id,
      model: 'tiny.gguf',
      instruction: 'Use the calculator.',
      tools: ['calculator'],
      subAgentIds: [],
      resumable: true,
    });
    const { json } = await runtime.agentSpecs.exportFile(saved!.id);

    // The same browser: the same provider, nothing added.
    const here = await runtime.agentSpecs.importFile(json);
    expect(here.addedProviders).toEqual([]);
    expect((await runtime.providers.list()).map((p) => p.id)).toEqual([info.id]);

    // Another browser with the same file (another id): matched by the file's name.
    const other = open();
    const there = await other.runtime.providers.addLocal(gguf('tiny.gguf'));
    expect((await other.runtime.agentSpecs.importFile(json)).addedProviders).toEqual([]);
    expect((await other.runtime.agentSpecs.list()).map((s) => s.providerId)).toEqual([there.id]);

    // One without it: refused whole, saying what to add.
    const bare = open();
    const error = await rejectionOf(bare.runtime.agentSpecs.importFile(json));
    expect(error.message).toMatch(/local model this browser does not have \(tiny\.gguf\)/);
    expect(await bare.runtime.providers.list()).toEqual([]);
    expect(await bare.runtime.agentSpecs.list()).toEqual([]);
  });
});
