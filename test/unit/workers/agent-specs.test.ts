// The agent builder in the runtime the worker runs (Node over fake-indexeddb), its agents running
// on the fixture model server over real HTTP: saving and refusing specs, the Agent select, a run
// with a built-in tool streamed, Stop and a server that cannot be reached (both resumable), and
// agent files that never hold a key.

import { attachmentPolicy } from '../../../src/models/attachments.ts';
import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { AgentSpecInput, RuntimeBroadcast } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const KEY = 'sk-fixture-0011223344556677-KEY9';

function open(dbName = freshDbName()) {
  const broadcasts: RuntimeBroadcast[] = [];
  const runtime = new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: (message) => broadcasts.push(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
    modelHttp: { maxRetries: 0 },
  });
  return { runtime, broadcasts };
}

async function withProvider(runtime: AppRuntime, baseUrl = `${server.url}/v1`) {
  return runtime.providers.save({
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl,
    defaultModel: 'fixture-text',
    apiKey: KEY,
  });
}

function spec(providerId: string, overrides: Partial<AgentSpecInput> = {}): AgentSpecInput {
  return {
    name: 'calc',
    description: 'Does sums.',
    providerId,
    model: 'fixture-calculator',
    instruction: 'Use the calculator.',
    tools: ['calculator'],
    subAgentIds: [],
    resumable: true,
    ...overrides,
  };
}

const run = runEvents;

const texts = (events: Event[]) =>
  events
    .filter((e) => !e.partial && e.content)
    .map((e) => textOf(e.content))
    .filter(Boolean);

describe('AppRuntime agent builder', () => {
  it('saves an agent and lists it last in the Agent select, with its model and provider', async () => {
    const { runtime, broadcasts } = open();
    const provider = await withProvider(runtime);
    const { saved, problems } = await runtime.agentSpecs.save(spec(provider.id));
    expect(problems).toEqual([]);
    expect(saved).toMatchObject({
      name: 'calc',
      providerName: 'Fixture',
      agentId: `agent:${saved!.id}`,
    });
    const agents = await runtime.agents();
    expect(agents.at(-1)).toEqual({
      id: saved!.agentId,
      name: 'calc',
      description: 'fixture-calculator on Fixture: Does sums.',
      kind: 'agent',
      // An OpenAI-compatible server takes images and text files, not PDFs.
      attachments: attachmentPolicy('openai-compatible'),
    });
    expect(agents.at(-1)!.attachments.kinds).toEqual(['image', 'text']);
    expect(broadcasts).toContainEqual({ type: 'agents-changed' });
  });

  it('refuses a spec with problems and writes nothing', async () => {
    const { runtime } = open();
    const provider = await withProvider(runtime);
    expect((await runtime.agentSpecs.save(spec('nope'))).problems).toEqual([
      'Choose a provider (add one in Settings → Providers)',
    ]);
    expect(
      (await runtime.agentSpecs.save(spec(provider.id, { tools: ['shell'] }))).problems,
    ).toEqual([expect.stringMatching(/there is no built-in tool shell/)]);
    const a = (await runtime.agentSpecs.save(spec(provider.id, { name: 'a' }))).saved!;
    expect((await runtime.agentSpecs.save(spec(provider.id, { name: 'a' }))).problems).toEqual([
      'Another agent is called a: give this one its own name',
    ]);
    const b = (await runtime.agentSpecs.save(spec(provider.id, { name: 'b', subAgentIds: [a.id] })))
      .saved!;
    const cycle = await runtime.agentSpecs.save({
      ...spec(provider.id, { name: 'a' }),
      id: a.id,
      subAgentIds: [b.id],
    });
    expect(cycle.problems).toEqual([
      'Sub-agents go round in a circle (a → b → a): an agent cannot be below itself',
    ]);
    expect((await runtime.agentSpecs.list()).map((s) => [s.name, s.subAgentIds])).toEqual([
      ['a', []],
      ['b', [a.id]],
    ]);
    // An edit that would put one agent twice in the tree of an agent above it.
    const c = (await runtime.agentSpecs.save(spec(provider.id, { name: 'c' }))).saved!;
    await runtime.agentSpecs.save(spec(provider.id, { name: 'r', subAgentIds: [b.id, c.id] }));
    const shared = await runtime.agentSpecs.save({
      ...spec(provider.id, { name: 'c' }),
      id: c.id,
      subAgentIds: [a.id],
    });
    expect(shared.problems).toEqual([
      'a is a sub-agent of both b and c: an agent can have only one parent in a tree',
    ]);
    const error = await rejectionOf(runtime.agentSpecs.remove(a.id));
    expect(error.message).toMatch(/sub-agent of b: remove it there first/);
  });

  it('runs an agent: the tool call, the answer streamed, and never the key in what it stores', async () => {
    const { runtime, broadcasts } = open();
    const provider = await withProvider(runtime);
    const { saved } = await runtime.agentSpecs.save(spec(provider.id));
    const { id } = await runtime.createSession(saved!.agentId);
    const { events, error } = await run((onEvent) =>
      runtime.runs.send(id, 'What is 6 * 7?', onEvent),
    );
    expect(error).toBeUndefined();
    const calls = events.flatMap(
      (e) => e.content?.parts.flatMap((p) => p.functionCall ?? []) ?? [],
    );
    expect(calls).toMatchObject([{ name: 'calculator', args: { expression: '6 * 7' } }]);
    const results = events.flatMap(
      (e) => e.content?.parts.flatMap((p) => p.functionResponse ?? []) ?? [],
    );
    expect(results).toMatchObject([{ response: { expression: '6 * 7', value: 42 } }]);
    // The user's message comes first, once stored (the page shows it as saved from then on).
    expect(texts(events)).toEqual(['What is 6 * 7?', 'The calculator says 6 × 7 = 42.']);
    expect(events.filter((e) => e.partial).map((e) => textOf(e.content))).toEqual([
      'The calculator says ',
      '6 × 7 = 42.',
    ]);
    const request = server.requests.filter((r) => r.body?.model === 'fixture-calculator').at(-1)!;
    expect(request.body.stream).toBe(true);
    expect(request.body.messages[0]).toEqual({
      role: 'system',
      content: expect.stringContaining('Use the calculator.'),
    });
    const exported = await runtime.exportSession(id);
    const snapshot = await runtime.openSession(id);
    expect(JSON.stringify([exported, snapshot, broadcasts, await runtime.agents()])).not.toContain(
      KEY,
    );
  });

  it('stops a run mid-answer (the request is aborted), and resumes it to the end', async () => {
    const { runtime } = open();
    const provider = await withProvider(runtime);
    const { saved } = await runtime.agentSpecs.save(
      spec(provider.id, { model: 'fixture-calculator-stall@stop' }),
    );
    const { id } = await runtime.createSession(saved!.agentId);
    const first = await run((onEvent) =>
      runtime.runs.send(id, 'What is 6 * 7?', (event) => {
        onEvent(event);
        if (event.partial) runtime.runs.stop(id); // the stream stalls after its first words
      }),
    );
    expect(first.error).toBeUndefined();
    expect(first.events.some((e) => e.partial)).toBe(true);
    const [interrupted] = await runtime.runs.interruptedRuns();
    expect(interrupted).toMatchObject({
      sessionId: id,
      status: 'interrupted',
      turnText: 'What is 6 * 7?',
      cause: 'stopped',
    });
    const resumed = await run((onEvent) =>
      runtime.runs.resume(id, interrupted!.invocationId, onEvent),
    );
    expect(resumed.error).toBeUndefined();
    expect(texts(resumed.events)).toEqual(['The calculator says 6 × 7 = 42.']);
    expect(await runtime.runs.interruptedRuns()).toEqual([]);
  });

  it('interrupts a run when the server cannot be reached, says so, and resumes once it is back', async () => {
    const down = await startModelServer();
    const { runtime } = open();
    const provider = await withProvider(runtime, `${down.url}/v1`);
    const { saved } = await runtime.agentSpecs.save(spec(provider.id));
    const { id } = await runtime.createSession(saved!.agentId);
    const port = Number(new URL(down.url).port);
    await down.close();

    const failed = await run((onEvent) => runtime.runs.send(id, 'What is 6 * 7?', onEvent));
    expect(failed.error?.name).toBe('ModelUnreachableError');
    const errorEvent = failed.events.find((e) => e.errorCode);
    expect(errorEvent).toMatchObject({ author: 'calc', errorCode: 'MODEL_UNREACHABLE' });
    expect(errorEvent!.errorMessage).toMatch(
      /^Could not reach Fixture .*The run stopped; resume it/,
    );
    const [interrupted] = await runtime.runs.interruptedRuns();
    expect(interrupted).toMatchObject({
      sessionId: id,
      status: 'interrupted',
      cause: 'failed',
      error: { name: 'ModelUnreachableError' },
    });

    const up = await startModelServer({ port });
    try {
      const resumed = await run((onEvent) =>
        runtime.runs.resume(id, interrupted!.invocationId, onEvent),
      );
      expect(resumed.error).toBeUndefined();
      expect(texts(resumed.events)).toEqual(['The calculator says 6 × 7 = 42.']);
      expect(await runtime.runs.interruptedRuns()).toEqual([]);
    } finally {
      await up.close();
    }
  });

  it('builds sub-agents from their specs, and rebuilds the agent when its provider changes', async () => {
    const { runtime } = open();
    const provider = await withProvider(runtime);
    const helper = (await runtime.agentSpecs.save(spec(provider.id, { name: 'helper' }))).saved!;
    const { saved } = await runtime.agentSpecs.save(
      spec(provider.id, {
        name: 'lead',
        model: 'fixture-text',
        tools: [],
        subAgentIds: [helper.id],
      }),
    );
    const { id } = await runtime.createSession(saved!.agentId);
    await run((onEvent) => runtime.runs.send(id, 'hi', onEvent));
    const tools = (r: (typeof server.requests)[number]) =>
      r.body.tools.map((t: { function: { name: string } }) => t.function.name);
    expect(tools(server.requests.at(-1)!)).toEqual(['transfer_to_agent']);
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    await runtime.providers.save({ ...provider, apiKey: 'sk-another-key-000000000000' });
    await run((onEvent) => runtime.runs.send(id, 'hi again', onEvent));
    expect(server.requests.at(-1)!.headers.authorization).toBe(
      'Bearer sk-another-key-000000000000',
    );
  });

  it('does not offer to resume the runs of an agent that is not resumable', async () => {
    const { runtime } = open();
    const provider = await withProvider(runtime);
    const { saved } = await runtime.agentSpecs.save(
      spec(provider.id, { model: 'fixture-calculator-stall@once', resumable: false }),
    );
    const { id } = await runtime.createSession(saved!.agentId);
    await run((onEvent) =>
      runtime.runs.send(id, 'What is 6 * 7?', (event) => {
        onEvent(event);
        if (event.partial) runtime.runs.stop(id);
      }),
    );
    expect(await runtime.runs.interruptedRuns()).toEqual([]);
  });

  it('exports an agent with its sub-agents and no key, and imports it elsewhere', async () => {
    const { runtime } = open();
    const provider = await withProvider(runtime);
    const helper = (await runtime.agentSpecs.save(spec(provider.id, { name: 'helper' }))).saved!;
    const lead = (
      await runtime.agentSpecs.save(spec(provider.id, { name: 'lead', subAgentIds: [helper.id] }))
    ).saved!;
    const file = await runtime.agentSpecs.exportFile(lead.id);
    expect(file.filename).toBe('lead.agent.json');
    expect(file.json).not.toContain(KEY);

    // Another browser: the provider is added without a key, and says so.
    const other = open().runtime;
    const result = await other.agentSpecs.importFile(file.json);
    expect(result.addedProviders).toEqual(['Fixture']);
    expect(result.imported.map((s) => s.name)).toEqual(['lead', 'helper']);
    const [added] = await other.providers.list();
    expect(added!.keyHint).toBeUndefined();
    expect(result.imported[0]!.subAgentIds).toEqual([result.imported[1]!.id]);

    // The same browser: its provider is reused, and the names get a suffix.
    const again = await runtime.agentSpecs.importFile(file.json);
    expect(again.addedProviders).toEqual([]);
    expect(again.imported.map((s) => [s.name, s.providerId])).toEqual([
      ['lead_2', provider.id],
      ['helper_2', provider.id],
    ]);

    const before = await other.agentSpecs.list();
    const bad = await rejectionOf(other.agentSpecs.importFile('{"format": "trellis-agent"}'));
    expect(bad.message).toMatch(/^This is not an agent file Trellis can import: version/);
    expect(await other.agentSpecs.list()).toEqual(before);
  });

  it('says so when a session’s agent was deleted', async () => {
    const { runtime } = open();
    const provider = await withProvider(runtime);
    const { saved } = await runtime.agentSpecs.save(spec(provider.id));
    const { id } = await runtime.createSession(saved!.agentId);
    await runtime.agentSpecs.remove(saved!.id);
    const { error } = await run((onEvent) => runtime.runs.send(id, 'hi', onEvent));
    expect(error?.message).toMatch(/^Agent deleted: this session's agent/);
  });
});
