// Context compaction in the app's runtime (Node over fake-indexeddb), against the fixture model
// server over real HTTP: a provider's context window as the user sets it (valid and hostile
// values), the agent builder's agents compacting a long chat by default once their window is
// known, the switch that turns it off, the context meter's numbers, and a rewind to before the
// compaction giving the model the whole conversation again.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCompactionEvent, type Event } from '../../../src/index.ts';
import type { AgentSpecInput, ProviderInput } from '../../../workers/protocol.ts';
import { LocalModels } from '../../../workers/local-models/local-models.ts';
import { CountingEngine } from '../../support/counting-engine.ts';
import { KEPT_EVENTS } from '../../../workers/agents/compaction.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { fixtureProvider, recordingRuntime } from '../../support/app-runtime.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const open = () => recordingRuntime().runtime;
const provider = (overrides: Partial<ProviderInput> = {}) =>
  fixtureProvider(server.url, { defaultModel: 'fixture-count', ...overrides });

function spec(providerId: string, overrides: Partial<AgentSpecInput> = {}): AgentSpecInput {
  return {
    name: 'talker',
    description: '',
    providerId,
    model: '',
    instruction: 'Answer briefly.',
    tools: [],
    subAgentIds: [],
    resumable: true,
    ...overrides,
  };
}

/** A message of about 75 tokens: six turns pass a window of 512 tokens' threshold. */
const message = (n: number) => `Message ${n}: ${'why is the sky blue? '.repeat(14)}`;

async function chat(runtime: AppRuntime, sessionId: string, from: number, turns: number) {
  for (let n = from; n < from + turns; n++) {
    const { error } = await runEvents((onEvent) =>
      runtime.runs.send(sessionId, message(n), onEvent),
    );
    expect(error).toBeUndefined();
  }
}

async function sessionOn(runtime: AppRuntime, input: ProviderInput, agent = {}) {
  const { id: providerId } = await runtime.providers.save(input);
  const { saved } = await runtime.agentSpecs.save(spec(providerId, agent));
  const { id } = await runtime.createSession(saved!.agentId);
  return { sessionId: id, providerId, agentId: saved!.agentId };
}

const compactions = (events: readonly Event[]) => events.filter(isCompactionEvent);
const requestText = (request: (typeof server.requests)[number]) =>
  JSON.stringify(request.body.messages);
const chatRequests = (since: number) =>
  server.requests
    .slice(since)
    .filter((r) => r.method === 'POST' && !requestText(r).includes('Please summarize'));

describe('a provider’s context window', () => {
  it('is kept as set, shown to the page, and cleared by saving it empty', async () => {
    const runtime = open();
    const saved = await runtime.providers.save(provider({ contextTokens: 4096 }));
    expect(saved.contextTokens).toBe(4096);
    expect((await runtime.providers.list())[0]!.contextTokens).toBe(4096);
    const cleared = await runtime.providers.save(provider({ id: saved.id }));
    expect(cleared.contextTokens).toBeUndefined();
  });

  it.each([
    ['a number in text', '4096'],
    ['a fraction', 4096.5],
    ['too few', 100],
    ['negative', -1],
    ['too many', 10_000_001],
    ['not a number', Number.NaN],
    ['an object', { tokens: 4096 }],
  ])('refuses %s, naming the field, and changes nothing', async (_, value) => {
    const runtime = open();
    const saved = await runtime.providers.save(provider({ contextTokens: 2048 }));
    const error = await rejectionOf(
      runtime.providers.save(provider({ id: saved.id, contextTokens: value as number })),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toMatch(/The context window must be a whole number of tokens/);
    expect(await runtime.providers.list()).toEqual([saved]);
  });
});

describe('a provider’s context window in a backup', () => {
  const backup = (contextTokens: unknown) =>
    JSON.stringify({
      format: 'trellis-backup',
      version: 1,
      createdAt: 1,
      sessions: [],
      flows: [],
      agents: [],
      providers: [{ ...provider(), id: 'p1', name: 'Restored', contextTokens, updatedAt: 1 }],
      toolServers: [],
      settings: {},
    });

  it('comes back as it was', async () => {
    const runtime = open();
    await runtime.backups.restore(backup(8192));
    expect((await runtime.providers.list())[0]!.contextTokens).toBe(8192);
  });

  it.each([-1, 0, 'all', 1e12, [512]])('refuses %j, and restores nothing', async (value) => {
    const runtime = open();
    const error = await rejectionOf(runtime.backups.restore(backup(value)));
    expect(error.message).toMatch(/the provider p1: The context window must be a whole number/);
    expect(await runtime.providers.list()).toEqual([]);
  });
});

describe('compaction of the agent builder’s agents', () => {
  it('is on by default: a chat past 75% of the window is summarised, the last events kept', async () => {
    const runtime = open();
    const { sessionId } = await sessionOn(runtime, provider({ contextTokens: 512 }));
    const since = server.requests.length;
    await chat(runtime, sessionId, 1, 6);
    const { events } = await runtime.openSession(sessionId);
    const [compaction, ...more] = compactions(events);
    expect(compaction, 'a compaction').toBeDefined();
    const { compactedContent, startEventId, endEventId } = compaction!.actions.compaction!;
    expect(compactedContent.parts[0]!.text).toMatch(/^Summary: the user asked/);
    expect(startEventId).toBe(events[0]!.id);
    // The events after the covered ones, before the compaction, are the kept ones.
    const kept = events.slice(
      events.findIndex((e) => e.id === endEventId) + 1,
      events.indexOf(compaction!),
    );
    expect(kept).toHaveLength(KEPT_EVENTS); // the message of the turn that compacted among them
    // The summariser was the agent's own model, and the request after it has the summary in
    // place of the first messages.
    const summaryRequests = server.requests
      .slice(since)
      .filter((r) => requestText(r).includes('Please summarize'));
    expect(summaryRequests[0]!.body.model).toBe('fixture-count');
    const after = chatRequests(since).at(-1 - more.length)!;
    expect(requestText(after)).toContain('[Previous Context Summary]');
    expect(requestText(after)).not.toContain('Message 1:');
    // Every message is still in the log, and the chat still has them (the meter counts less).
    expect(events.filter((e) => e.author === 'user' && !isCompactionEvent(e))).toHaveLength(6);
  });

  it('gives the meter the model’s last count against the window and where it compacts', async () => {
    const runtime = open();
    const { sessionId } = await sessionOn(runtime, provider({ contextTokens: 512 }));
    expect(await runtime.sessionContext(sessionId)).toEqual({
      tokens: 0,
      counted: false,
      window: { tokens: 512, source: 'set' },
      compactAt: 384,
    });
    await chat(runtime, sessionId, 1, 1);
    const last = chatRequests(0).at(-1)!;
    expect(await runtime.sessionContext(sessionId)).toMatchObject({
      tokens: Math.ceil(requestText(last).length / 4),
      counted: true,
      compactAt: 384,
    });
  });

  it('rewound to before the compaction, the model is sent the whole conversation again', async () => {
    const runtime = open();
    const { sessionId, agentId } = await sessionOn(runtime, provider({ contextTokens: 512 }));
    await chat(runtime, sessionId, 1, 6);
    const [compaction] = compactions((await runtime.openSession(sessionId)).events);
    await runtime.rewinds.rewind(sessionId, compaction!.invocationId);
    // Nothing is deleted: the log keeps the compaction, off the active path now.
    expect(compactions((await runtime.openSession(sessionId)).events)).toHaveLength(1);
    const use = await runtime.sessionContext(sessionId);
    expect(use!.tokens).toBeGreaterThan(use!.compactAt!); // still over: it would compact again
    // The user turns compaction off for this agent, and asks again: all of it goes.
    const stored = (await runtime.agentSpecs.list()).find((s) => s.agentId === agentId)!;
    await runtime.agentSpecs.save({
      ...spec(stored.providerId),
      id: stored.id,
      compactLongChats: false,
    });
    const since = server.requests.length;
    await chat(runtime, sessionId, 7, 1);
    const sent = requestText(chatRequests(since)[0]!);
    expect(sent).toContain('Message 1:');
    expect(sent).not.toContain('[Previous Context Summary]');
  });

  it('compacts nothing when the window is unknown, or the agent’s switch is off', async () => {
    for (const [input, agent] of [
      [provider(), {}],
      [provider({ contextTokens: 512 }), { compactLongChats: false }],
    ] as const) {
      const runtime = open();
      const { sessionId } = await sessionOn(runtime, input, agent);
      await chat(runtime, sessionId, 1, 6);
      expect(compactions((await runtime.openSession(sessionId)).events)).toEqual([]);
      const use = await runtime.sessionContext(sessionId);
      expect(use!.compactAt).toBeUndefined();
      expect(use!.counted).toBe(true);
    }
  });

  it('refuses an agent whose switch is not true or false, and saves nothing', async () => {
    const runtime = open();
    const { id } = await runtime.providers.save(provider());
    const result = await runtime.agentSpecs.save(
      spec(id, { compactLongChats: 'yes' as unknown as boolean }),
    );
    expect(result.problems).toEqual(['compactLongChats must be true or false']);
    expect(await runtime.agentSpecs.list()).toEqual([]);
  });
});

describe('compaction of a flow’s chat', () => {
  it('is on for its model nodes on a provider’s model whose window is known', async () => {
    const runtime = open();
    await runtime.providers.save(provider({ contextTokens: 512 }));
    const flow = {
      name: 'chatty',
      nodes: [
        { id: 'start', type: 'start', model: 'Fixture/fixture-count' },
        { id: 'talk', type: 'agent', instruction: 'Answer briefly.' },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'talk' },
        { from: 'talk', to: 'end' },
      ],
    };
    const { saved } = await runtime.flows.save(JSON.stringify(flow));
    const { id: sessionId } = await runtime.createSession(saved!.id);
    const since = server.requests.length;
    await chat(runtime, sessionId, 1, 6);
    const { events } = await runtime.openSession(sessionId);
    expect(compactions(events).length).toBeGreaterThan(0);
    const after = chatRequests(since).at(-1)!;
    expect(requestText(after)).toContain('[Previous Context Summary]');
    // The flow answered every message.
    expect(events.filter((e) => e.author === 'talk' && e.content).length).toBeGreaterThanOrEqual(6);
    // The meter judges it against its start model's window.
    expect(await runtime.sessionContext(sessionId)).toMatchObject({
      window: { tokens: 512 },
      compactAt: expect.any(Number),
    });
  });
});

describe('the switch in agent files', () => {
  it('goes out with an agent that has it off and comes back in; an on agent’s file says nothing', async () => {
    const runtime = open();
    const { id } = await runtime.providers.save(provider());
    const off = (await runtime.agentSpecs.save(spec(id, { compactLongChats: false }))).saved!;
    const on = (await runtime.agentSpecs.save(spec(id, { name: 'other' }))).saved!;
    const offFile = await runtime.agentSpecs.exportFile(off.id);
    expect(JSON.parse(offFile.json).agents[0].compactLongChats).toBe(false);
    expect((await runtime.agentSpecs.exportFile(on.id)).json).not.toContain('compactLongChats');
    const [imported] = (await runtime.agentSpecs.importFile(offFile.json)).imported;
    expect(imported!.compactLongChats).toBe(false);
    const hostile = offFile.json.replace('"compactLongChats": false', '"compactLongChats": "no"');
    const error = await rejectionOf(runtime.agentSpecs.importFile(hostile));
    expect(error.message).toMatch(/compactLongChats must be true or false/);
    expect(await runtime.agentSpecs.list()).toHaveLength(3);
  });
});

describe('a local model', () => {
  /** A runtime whose local models run on an engine in memory with a context of 1,024 tokens. */
  function withLocalModels() {
    const files = new Map<string, Blob>();
    return new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => {},
      localModels: new LocalModels({
        save: async (id, file) => void files.set(id, file),
        remove: async (id) => void files.delete(id),
        load: async () => Object.assign(new CountingEngine(1024), { exit: async () => {} }),
      }),
    });
  }

  it('has its window once loaded: its context, which the chat then compacts against', async () => {
    const runtime = withLocalModels();
    const local = await runtime.providers.addLocal(
      new File(['GGUF', new Uint8Array(60)], 'tiny.gguf'),
    );
    const { saved } = await runtime.agentSpecs.save(spec(local.id));
    const { id: sessionId } = await runtime.createSession(saved!.agentId);
    // Not loaded yet: its context is not known (the user set none).
    expect((await runtime.sessionContext(sessionId))!.window).toBeUndefined();
    await chat(runtime, sessionId, 1, 1);
    expect(await runtime.sessionContext(sessionId)).toMatchObject({
      // Its reply's room (a quarter of its context) left out: 75% of 768.
      window: { tokens: 1024, source: 'loaded', promptTokens: 768 },
      compactAt: 576,
      counted: true,
    });
    await chat(runtime, sessionId, 2, 10);
    expect(compactions((await runtime.openSession(sessionId)).events).length).toBeGreaterThan(0);
  });
});
