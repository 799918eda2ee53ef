// The view models of Settings → Providers and the agent builder, against the real runtime (Node
// over fake-indexeddb) and the fixture model server: what the forms send, what they show, and
// that a key typed in the page is dropped once saved and never comes back.

import 'fake-indexeddb/auto';
import type { Remote } from 'comlink';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AgentBuilder } from '../../../src/ui/agents/agent-builder.ts';
import {
  emptyDraft,
  subAgentChoices,
  toggled,
} from '../../../src/ui/agents/agent-builder-model.ts';
import { ProvidersEditor } from '../../../src/ui/settings/providers-editor.ts';
import {
  connectionText,
  draftFromPreset,
  inputOf,
  keyPlaceholder,
  withKind,
} from '../../../src/ui/settings/providers-model.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { AgentSpecInfo, RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { RuntimeApi } from '../../../workers/runtime.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-typed-in-the-page-000000-TAIL';

/** The runtime as the page sees it through Comlink, in process; broadcasts delivered at once. */
function client() {
  const listeners = new Set<(message: RuntimeBroadcast) => void>();
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: (message) => listeners.forEach((listener) => listener(message)),
    modelHttp: { maxRetries: 0 },
  });
  const api: Partial<RuntimeApi> = {
    listProviders: () => runtime.providers.list(),
    saveProvider: (input) => runtime.providers.save(input),
    deleteProvider: (id) => runtime.providers.remove(id),
    testProvider: (input) => runtime.providers.test(input),
    providerModels: (id) => runtime.providers.models(id),
    listBuiltinTools: () => runtime.agentSpecs.tools(),
    listAgentSpecs: () => runtime.agentSpecs.list(),
    saveAgentSpec: (input) => runtime.agentSpecs.save(input),
    deleteAgentSpec: (id) => runtime.agentSpecs.remove(id),
    exportAgentSpec: (id) => runtime.agentSpecs.exportFile(id),
    importAgentSpec: (json) => runtime.agentSpecs.importFile(json),
  };
  return {
    runtime,
    client: {
      runtime: api as unknown as Remote<RuntimeApi>,
      onBroadcast: (listener: (message: RuntimeBroadcast) => void) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    },
  };
}

describe('provider forms', () => {
  it('starts from a preset, numbering a name already taken', () => {
    expect(draftFromPreset('Ollama', ['Ollama'])).toMatchObject({
      kind: 'openai-compatible',
      name: 'Ollama 2',
      baseUrl: 'http://localhost:11434/v1',
      apiKey: '',
    });
    expect(draftFromPreset('Other server')).toMatchObject({ name: 'Other server' });
  });

  it('moves a preset base URL along when the kind changes, and keeps one the user typed', () => {
    const ollama = draftFromPreset('Ollama');
    expect(withKind(ollama, 'gemini').baseUrl).toBe(
      'https://generativelanguage.googleapis.com/v1beta',
    );
    expect(withKind(draftFromPreset('Gemini'), 'openai-compatible').baseUrl).toBe(
      'http://localhost:11434/v1',
    );
    const typed = { ...ollama, baseUrl: 'http://my-box:9000/v1' };
    expect(withKind(typed, 'gemini')).toMatchObject({ kind: 'gemini', baseUrl: typed.baseUrl });
  });

  it('sends a key only when one was typed, and the removal when asked', () => {
    const draft = { ...draftFromPreset('Gemini'), id: 'p1' };
    expect(inputOf(draft)).not.toHaveProperty('apiKey');
    expect(inputOf({ ...draft, apiKey: ` ${KEY} ` }).apiKey).toBe(KEY);
    expect(inputOf({ ...draft, apiKey: KEY, removeKey: true })).toEqual(
      expect.objectContaining({ removeKey: true }),
    );
    expect(inputOf({ ...draft, apiKey: KEY, removeKey: true })).not.toHaveProperty('apiKey');
    expect(keyPlaceholder({ ...draft, keyHint: '••••TAIL' })).toBe(
      '••••TAIL stored; type a new key to replace it',
    );
  });

  it.each([
    [{ ok: true as const, models: ['a'] }, 'Connected: 1 model (a).'],
    [
      { ok: true as const, models: ['a', 'b', 'c', 'd', 'e', 'f', 'g'] },
      'Connected: 7 models (a, b, c, d, e, f, …).',
    ],
    [{ ok: true as const, models: [] }, 'Connected, but the server lists no models.'],
    [{ ok: false as const, message: 'Could not reach X.' }, 'Could not reach X.'],
  ])('says %j as %s', (test, text) => {
    expect(connectionText(test)).toBe(text);
  });

  it('tests, saves and then forgets the typed key: the page sees it masked only', async () => {
    const { client: page } = client();
    const editor = new ProvidersEditor(page);
    await editor.start();
    editor.add('OpenAI');
    editor.change({ name: 'Fixture', baseUrl: `${server.url}/v1`, apiKey: KEY });
    await editor.testConnection();
    expect(editor.snapshot.test).toEqual({
      ok: true,
      models: expect.arrayContaining(['qwen3:8b']),
    });
    expect(editor.snapshot.models).toContain('fixture-tool-call');
    editor.change({ defaultModel: 'fixture-text' });
    await editor.save();
    await vi.waitFor(() =>
      expect(editor.snapshot.providers.map((p) => p.name)).toEqual(['Fixture']),
    );
    const state = editor.snapshot;
    expect(state.status).toBe('Saved “Fixture”.');
    expect(state.draft).toMatchObject({ apiKey: '', keyHint: '••••TAIL', id: expect.any(String) });
    expect(state.providers.map((p) => p.name)).toEqual(['Fixture']);
    expect(JSON.stringify(state)).not.toContain(KEY);
    editor.stop();
  });

  it('shows the provider’s error when the connection fails', async () => {
    const editor = new ProvidersEditor(client().client);
    await editor.start();
    editor.add('LM Studio');
    editor.change({ baseUrl: 'http://127.0.0.1:9/v1' });
    await editor.testConnection();
    expect(editor.snapshot.test).toEqual({
      ok: false,
      message: expect.stringMatching(/^Could not reach LM Studio/),
    });
  });
});

describe('agent builder', () => {
  const spec = (id: string, subAgentIds: string[] = []) =>
    ({ id, name: id, subAgentIds }) as unknown as AgentSpecInfo;

  it('offers as sub-agents only agents that would not close a circle', () => {
    const specs = [spec('a', ['b']), spec('b', ['c']), spec('c'), spec('d')];
    expect(subAgentChoices(specs, 'c').map((s) => s.id)).toEqual(['d']);
    expect(subAgentChoices(specs, 'a').map((s) => s.id)).toEqual(['b', 'c', 'd']);
    expect(subAgentChoices(specs, undefined)).toHaveLength(4);
    expect(toggled(['x', 'y'], 'x', false)).toEqual(['y']);
    expect(toggled(['y'], 'x', true)).toEqual(['y', 'x']);
    expect(emptyDraft([], ['my_agent']).name).toBe('my_agent_2');
  });

  it('shows its form once loaded, and keeps a draft not saved across leaving and coming back', async () => {
    const { client: page, runtime } = client();
    await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Fixture',
      baseUrl: `${server.url}/v1`,
      defaultModel: 'fixture-text',
    });
    const builder = new AgentBuilder(page);
    expect(builder.snapshot.loaded).toBe(false);
    await builder.start();
    expect(builder.snapshot.loaded).toBe(true);
    builder.change({ name: 'half_typed', instruction: 'Be brief.' });
    builder.stop();
    await builder.start();
    expect(builder.snapshot.draft).toMatchObject({ name: 'half_typed', instruction: 'Be brief.' });
    builder.stop();
  });

  it('makes an agent on a provider, with the provider’s models, and lists it', async () => {
    const { client: page, runtime } = client();
    const provider = await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Fixture',
      baseUrl: `${server.url}/v1`,
      defaultModel: 'fixture-text',
    });
    const builder = new AgentBuilder(page);
    await builder.start();
    await vi.waitFor(() => expect(builder.snapshot.models).toContain('fixture-tool-call'));
    expect(builder.snapshot.draft).toMatchObject({
      name: 'my_agent',
      displayName: 'My agent',
      providerId: provider.id,
    });
    expect(builder.snapshot.tools.map((t) => t.name)).toContain('calculator');

    // An identifier that ADK would refuse is refused (one sent by hand: the form makes none).
    builder.change({ name: 'bad name' });
    await builder.save();
    expect(builder.snapshot.problems).toEqual([expect.stringMatching(/must be an identifier/)]);
    expect(builder.snapshot.status).toBe('Not saved: fix the problems first.');

    // Any display name: the identifier ADK needs is made from it, and shown.
    builder.rename('Calc Ü 2000!');
    builder.change({ model: 'fixture-calculator', tools: ['calculator'] });
    expect(builder.snapshot.draft).toMatchObject({
      displayName: 'Calc Ü 2000!',
      name: 'calc_u_2000',
    });
    expect(builder.dirty).toBe(true);
    await builder.save();
    await vi.waitFor(() =>
      expect(builder.snapshot.specs.map((s) => s.name)).toEqual(['calc_u_2000']),
    );
    expect(builder.snapshot.status).toMatch(/^Saved “Calc Ü 2000!”/);
    expect(builder.dirty).toBe(false);
    expect((await runtime.agents()).at(-1)).toMatchObject({
      name: 'Calc Ü 2000!',
      kind: 'agent',
    });
    // Renamed once saved, it keeps its identifier: its sessions and transfers name it.
    builder.rename('Calculator');
    expect(builder.snapshot.draft).toMatchObject({
      displayName: 'Calculator',
      name: 'calc_u_2000',
    });
    await builder.save();

    const file = await builder.exportFile(builder.snapshot.draft.id!);
    expect(JSON.parse(file!.json).agents[0]).toMatchObject({
      name: 'calc_u_2000',
      displayName: 'Calculator',
    });
    await builder.importFile(file!.json);
    await vi.waitFor(() => expect(builder.snapshot.specs.length).toBe(2));
    expect(builder.snapshot.specs.map((s) => [s.name, s.displayName])).toEqual([
      ['calc_u_2000', 'Calculator'],
      ['calc_u_2000_2', 'Calculator 2'],
    ]);
    expect(builder.snapshot.status).toBe('Imported Calculator 2.');
    // A new agent's identifier is unique among the others'.
    builder.newAgent();
    builder.rename('Calc ü 2000');
    expect(builder.snapshot.draft.name).toBe('calc_u_2000_3');
    await builder.importFile('{"agents": []}');
    expect(builder.snapshot.error).toMatch(/not an agent file Trellis can import/);
    builder.stop();
  });
});
