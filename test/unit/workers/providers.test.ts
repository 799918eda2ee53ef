// Settings → Providers in the runtime the worker runs (Node over fake-indexeddb), against the
// fixture model server over real HTTP: keys go in and come out only masked, "Test connection"
// lists the models or says what is wrong, and a provider in use is not deleted.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import type { ProviderInput, RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-fixture-9f8e7d6c5b4a3210-LAST';

function open() {
  const broadcasts: RuntimeBroadcast[] = [];
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: (message) => broadcasts.push(message),
    modelHttp: { maxRetries: 0 },
  });
  return { runtime, broadcasts };
}

function input(overrides: Partial<ProviderInput> = {}): ProviderInput {
  return {
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${server.url}/v1`,
    defaultModel: 'fixture-text',
    apiKey: KEY,
    ...overrides,
  };
}

describe('AppRuntime providers', () => {
  it('stores a provider with its key, and shows the page only the masked key', async () => {
    const { runtime, broadcasts } = open();
    const saved = await runtime.providers.save(input());
    expect(saved).toEqual({
      id: expect.any(String),
      kind: 'openai-compatible',
      name: 'Fixture',
      baseUrl: `${server.url}/v1`,
      defaultModel: 'fixture-text',
      keyHint: '••••LAST',
      updatedAt: expect.any(Number),
    });
    const listed = await runtime.providers.list();
    expect(listed).toEqual([saved]);
    expect(JSON.stringify([saved, listed, broadcasts])).not.toContain(KEY);
    expect(broadcasts).toEqual([{ type: 'providers-changed' }]);
  });

  it('keeps the stored key when the form sends none, and drops it when asked', async () => {
    const { runtime } = open();
    const { id } = await runtime.providers.save(input());
    const renamed = await runtime.providers.save(input({ id, name: 'Renamed', apiKey: '' }));
    expect(renamed.keyHint).toBe('••••LAST');
    const test = await runtime.providers.test(input({ id, apiKey: undefined }));
    expect(test.ok).toBe(true);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    const keyless = await runtime.providers.save(input({ id, removeKey: true }));
    expect(keyless.keyHint).toBeUndefined();
    await runtime.providers.test(input({ id, apiKey: undefined }));
    expect(server.requests.at(-1)!.headers.authorization).toBeUndefined();
  });

  it('tests a connection: the models, sorted, or the provider’s own clear error', async () => {
    const { runtime } = open();
    expect(await runtime.providers.test(input())).toEqual({
      ok: true,
      models: ['fixture-text', 'fixture-tool-call', 'llama3.2:3b', 'qwen3:8b'],
    });
    const wrongPath = await runtime.providers.test(input({ baseUrl: `${server.url}/nope` }));
    expect(wrongPath).toEqual({
      ok: false,
      message: expect.stringMatching(/^Fixture found nothing at this address \(HTTP 404\)/),
    });
    const closed = await runtime.providers.test(input({ baseUrl: 'http://127.0.0.1:9/v1' }));
    expect(closed).toEqual({
      ok: false,
      message: expect.stringMatching(/^Could not reach Fixture/),
    });
    const invalid = await runtime.providers.test(input({ baseUrl: 'localhost:11434' }));
    expect(invalid).toEqual({ ok: false, message: expect.stringMatching(/must start with http/) });
    expect(JSON.stringify([wrongPath, closed])).not.toContain(KEY);
  });

  it('lists the models of a saved provider, for the agent builder', async () => {
    const { runtime } = open();
    const { id } = await runtime.providers.save(input());
    expect(await runtime.providers.models(id)).toMatchObject({ ok: true });
    const error = await rejectionOf(runtime.providers.models('gone'));
    expect(error.message).toMatch(/provider was deleted/);
  });

  it('refuses a provider with problems, naming them, and saves nothing', async () => {
    const { runtime, broadcasts } = open();
    const bad = await rejectionOf(runtime.providers.save(input({ name: '', baseUrl: 'nope' })));
    expect(bad.name).toBe('InvalidRequestError');
    expect(bad.message).toMatch(/Give the provider a name\. The base URL "nope" is not a URL/);
    await runtime.providers.save(input());
    const twin = await rejectionOf(runtime.providers.save(input()));
    expect(twin.message).toMatch(/Another provider is called "Fixture"/);
    expect(await runtime.providers.list()).toHaveLength(1);
    expect(broadcasts).toHaveLength(1);
  });

  it('does not delete a provider that an agent uses', async () => {
    const { runtime } = open();
    const { id } = await runtime.providers.save(input());
    const { saved } = await runtime.agentSpecs.save({
      name: 'helper',
      description: '',
      providerId: id,
      model: '',
      instruction: '',
      tools: [],
      subAgentIds: [],
      resumable: true,
    });
    const error = await rejectionOf(runtime.providers.remove(id));
    expect(error.message).toMatch(/used by the agent helper: give it another provider first/);
    await runtime.agentSpecs.remove(saved!.id);
    await runtime.providers.remove(id);
    expect(await runtime.providers.list()).toEqual([]);
  });
});

describe('flows on the providers’ models', () => {
  const flowOn = (model: string | undefined) =>
    JSON.stringify({
      name: `on-${model ?? 'demo'}`,
      nodes: [
        { id: 'start', type: 'start', ...(model ? { model } : {}) },
        { id: 'answer', type: 'agent', instruction: 'Answer: {{question}}' },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'answer' },
        { from: 'answer', to: 'end' },
      ],
    });

  it('runs a flow whose Start names Provider/model on that provider, over HTTP', async () => {
    const { runtime } = open();
    await runtime.providers.save(input());
    const { saved } = await runtime.flows.save(flowOn('Fixture/fixture-text'));
    const session = await runtime.createSession(saved!.id);
    const before = server.requests.length;
    await runtime.runs.send(session.id, 'Why is the sky blue?', () => {});
    const opening = await runtime.openSessionSummary(session.id);
    const texts = opening.activeTail.map(({ event }) =>
      (event.content?.parts ?? []).map((part) => part.text ?? '').join(''),
    );
    expect(texts).toContain('The sky is blue because air scatters blue light most.');
    const request = server.requests.slice(before).find((r) => r.path.endsWith('/chat/completions'));
    expect(request?.body).toMatchObject({ model: 'fixture-text' });
  });

  it('refuses a flow that names a model no provider has, saying which names there are', async () => {
    const { runtime } = open();
    await runtime.providers.save(input());
    const checked = await runtime.flows.check(flowOn('Nowhere/big-model'));
    expect(checked.problems).toEqual([
      {
        nodeId: 'start',
        message: 'unknown model "Nowhere/big-model" (known models: Fixture/fixture-text)',
      },
    ]);
    // A flow that names no model runs on the offline demo model, as before.
    expect((await runtime.flows.check(flowOn(undefined))).problems).toEqual([]);
  });
});
