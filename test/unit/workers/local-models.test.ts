// Settings → Providers → Add local model, in the runtime the worker runs (Node over
// fake-indexeddb), on a backend in memory instead of OPFS and wllama: the file is checked and
// kept once, the provider shows its name and size, agents get its one model, renaming keeps
// the file, and deleting the provider deletes the file.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { LocalChatEngine } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { LocalModels, type LocalModelBackend } from '../../../workers/local-models/local-models.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { chatItems } from '../../../src/ui/chat/chat-model.ts';
import { CountingEngine } from '../../support/counting-engine.ts';
import { collect, freshDbName, rejectionOf } from '../../support/helpers.ts';

class MemoryBackend implements LocalModelBackend {
  readonly files = new Map<string, Blob>();
  loads = 0;
  exits = 0;
  /** When set, a load reads half the file, then waits for it. */
  held: Promise<void> | undefined;
  /** The context size each load was asked for. */
  readonly contexts: (number | undefined)[] = [];
  /** When set, the engine counts tokens in a context of this size (or of the one asked for). */
  counting: number | undefined;
  async save(id: string, file: Blob) {
    this.files.set(id, file);
  }
  async remove(id: string) {
    this.files.delete(id);
  }
  async load(
    id: string,
    onRead?: (read: number, total: number) => void,
    options: { contextTokens?: number } = {},
  ) {
    const file = this.files.get(id);
    if (!file) throw new Error(`no file ${id}`);
    this.loads++;
    this.contexts.push(options.contextTokens);
    if (this.counting !== undefined) {
      const engine = new CountingEngine(options.contextTokens ?? this.counting);
      return Object.assign(engine, { exit: async () => void this.exits++ });
    }
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

  it('answers a conversation longer than its context without its oldest turns, and the chat says so', async () => {
    const { runtime, backend } = open();
    backend.counting = 4096;
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    // Settings → Providers: a small context, which the model is loaded with.
    const saved = await runtime.providers.save({
      id: info.id,
      kind: 'local-gguf',
      name: 'tiny',
      baseUrl: '',
      defaultModel: '',
      contextTokens: 600,
    });
    expect(saved.contextTokens).toBe(600);
    const { saved: agent } = await runtime.agentSpecs.save({
      name: 'talker',
      description: '',
      providerId: info.id,
      model: 'tiny.gguf',
      instruction: 'Talk.',
      tools: [],
      subAgentIds: [],
      resumable: true,
      // Compaction (on by default) would summarise the chat before the model has to drop turns.
      compactLongChats: false,
    });
    const session = await runtime.createSession(agent!.agentId);
    for (let n = 1; n <= 8; n++)
      await runtime.runs.send(session.id, `Message ${n}: ${'words '.repeat(60)}`, () => {});
    expect(backend.contexts).toEqual([600]);
    const opened = await runtime.openSessionSummary(session.id);
    const items = chatItems(opened.activeTail.map((entry) => entry.event));
    // Every message answered, none failed; the session keeps all of them.
    expect(items.filter((item) => item.kind === 'error')).toEqual([]);
    expect(items.filter((item) => item.kind === 'message' && item.fromUser)).toHaveLength(8);
    expect(items.filter((item) => item.kind === 'message' && !item.fromUser)).toHaveLength(8);
    const notes = items.filter((item) => item.kind === 'note').map((item) => item.text);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes.at(-1)).toMatch(
      /^The oldest \d+ turns were left out of this request to fit the model’s context \(600 tokens\); the session still has them\.$/,
    );
  });

  it('loads the model again with a new context size, and refuses one out of range', async () => {
    const { runtime, backend } = open();
    backend.counting = 4096;
    const info = await runtime.providers.addLocal(gguf('tiny.gguf'));
    const input = {
      id: info.id,
      kind: 'local-gguf' as const,
      name: 'tiny',
      baseUrl: '',
      defaultModel: '',
    };
    const ask = async () =>
      collect(
        runtime.providers
          .model(await runtime.providers.record(info.id), 'tiny.gguf')
          .generateContentAsync({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      );
    await ask();
    expect(await runtime.providers.loadLocal(info.id)).toMatchObject({
      state: 'loaded',
      context: { tokens: 4096 },
    });
    await runtime.providers.save({ ...input, contextTokens: 2048 });
    await ask();
    expect(backend.contexts).toEqual([undefined, 2048]);
    expect(runtime.providers.localStatus(info.id)).toMatchObject({ context: { tokens: 2048 } });
    const error = await rejectionOf(runtime.providers.save({ ...input, contextTokens: 100 }));
    expect(error.message).toMatch(/The context size must be a whole number of tokens from 512/);
    expect((await runtime.providers.list())[0]?.contextTokens).toBe(2048);
    // Emptied: the model's own again.
    expect((await runtime.providers.save(input)).contextTokens).toBeUndefined();
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
