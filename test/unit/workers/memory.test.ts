// Memory in the app's runtime (Node over fake-indexeddb), its agent on the fixture model server
// over real HTTP: an agent that remembers adds each turn and finds it from another session with
// `load_memory`; the Memory view's list and deletes; a session's *Add to memory*; a rewind and a
// session's delete take back what they added; unknown ids and hostile input change nothing.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import type { AppRuntime } from '../../../workers/app.ts';
import type { AgentSpecInput, MemoryPage } from '../../../workers/protocol.ts';
import { recordingRuntime } from '../../support/app-runtime.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const open = recordingRuntime;

/** A built agent on the scripted memory model; `memory` says whether it remembers. */
async function agent(runtime: AppRuntime, overrides: Partial<AgentSpecInput> = {}) {
  const provider = await runtime.providers.save({
    kind: 'openai-compatible',
    name: `Fixture ${crypto.randomUUID().slice(0, 4)}`,
    baseUrl: `${server.url}/v1`,
    defaultModel: 'fixture-memory',
    apiKey: 'sk-fixture-memory-0000',
  });
  const { saved, problems } = await runtime.agentSpecs.save({
    name: `keeper_${crypto.randomUUID().slice(0, 4)}`,
    description: '',
    providerId: provider.id,
    model: 'fixture-memory',
    instruction: 'Remember what you are told.',
    tools: [],
    subAgentIds: [],
    resumable: true,
    memory: true,
    ...overrides,
  });
  expect(problems).toEqual([]);
  return saved!.agentId;
}

async function say(runtime: AppRuntime, sessionId: string, text: string): Promise<string[]> {
  const { events, error } = await runEvents((onEvent) =>
    runtime.runs.send(sessionId, text, onEvent),
  );
  expect(error).toBeUndefined();
  return answers(events);
}

const answers = (events: Event[]) =>
  events
    .filter((e) => !e.partial && e.author !== 'user' && textOf(e.content))
    .map((e) => textOf(e.content));

/** What the Memory view shows: each session's title and its memories' authors and texts. */
const shown = (page: MemoryPage) =>
  page.sessions.map((s) => [s.title, s.memories.map((m) => `${m.author}: ${m.text}`)]);

describe('memory in the app', () => {
  it('remembers a fact told in one session and finds it from another with load_memory', async () => {
    const { runtime, broadcasts } = open();
    const agentId = await agent(runtime);
    const one = await runtime.createSession(agentId, 'Locker');
    expect(await say(runtime, one.id, 'My locker code is 4721.')).toEqual([
      'Noted: I will remember that.',
    ]);
    expect(broadcasts).toContainEqual({ type: 'memory-changed' });
    const two = await runtime.createSession(agentId, 'Asking');
    expect(await say(runtime, two.id, 'What is my locker code?')).toEqual([
      'From memory: My locker code is 4721.',
    ]);
    // The model was offered load_memory and told it has memory (ADK's instruction).
    const asked = server.requests.filter((r) => r.body?.model === 'fixture-memory').at(-2)!;
    expect(asked.body.tools.map((t: any) => t.function.name)).toEqual(['load_memory']);
    expect(JSON.stringify(asked.body.messages[0])).toContain('You have memory.');
    // Both sessions' turns are in memory now, the latest session first (the call of load_memory
    // and its result are not: memory keeps text).
    const page = await runtime.memory.list();
    expect(page).toMatchObject({ sessionCount: 2, memoryCount: 4 });
    expect(shown(page)).toEqual([
      [
        'Asking',
        ['user: What is my locker code?', expect.stringMatching(/^keeper_\w+: From memory/)],
      ],
      ['Locker', ['user: My locker code is 4721.', expect.stringMatching(/^keeper_\w+: Noted/)]],
    ]);
  });

  it('carries “Remembers across sessions” in the spec and the agent file, and refuses a bad one', async () => {
    const { runtime } = open();
    const agentId = await agent(runtime, { name: 'keeper' });
    const id = agentId.slice('agent:'.length);
    const [saved] = await runtime.agentSpecs.list();
    expect(saved!.memory).toBe(true);
    const file = await runtime.agentSpecs.exportFile(id);
    expect(JSON.parse(file.json).agents[0].memory).toBe(true);
    const { imported } = await runtime.agentSpecs.importFile(file.json);
    expect(imported[0]).toMatchObject({ name: 'keeper_2', memory: true });
    // A file that says anything else is refused whole.
    const hostile = JSON.parse(file.json);
    hostile.agents[0].memory = 'yes';
    const refused = await rejectionOf(runtime.agentSpecs.importFile(JSON.stringify(hostile)));
    expect(refused.message).toMatch(/memory must be true or false/);
    expect(await runtime.agentSpecs.list()).toHaveLength(2);
    // Off is the default, and is not written.
    const off = await runtime.agentSpecs.save({ ...saved!, memory: false });
    expect(off.saved).not.toHaveProperty('memory');
  });

  it('adds nothing of an agent that does not remember, until the user adds the session', async () => {
    const { runtime, broadcasts } = open();
    const agentId = await agent(runtime, { memory: false });
    const session = await runtime.createSession(agentId);
    await say(runtime, session.id, 'My bike is red.');
    expect((await runtime.memory.list()).sessions).toEqual([]);
    expect(broadcasts).not.toContainEqual({ type: 'memory-changed' });
    expect(await runtime.memory.addSession(session.id)).toBe(2);
    expect(shown(await runtime.memory.list())).toEqual([
      ['My bike is red.', ['user: My bike is red.', expect.stringMatching(/: Noted/)]],
    ]);
    expect(broadcasts).toContainEqual({ type: 'memory-changed' });
    // A demo agent's session too (*Add to memory* works for any local session).
    const demo = await runtime.createSession();
    await runEvents((onEvent) => runtime.runs.send(demo.id, 'Hello there', onEvent));
    expect(await runtime.memory.addSession(demo.id)).toBeGreaterThan(0);
  });

  it('deletes one memory, then a session’s: a later turn does not bring a deleted one back', async () => {
    const { runtime } = open();
    const agentId = await agent(runtime);
    const session = await runtime.createSession(agentId);
    await say(runtime, session.id, 'My locker code is 4721.');
    const [first] = (await runtime.memory.list()).sessions;
    const noted = first!.memories[1]!;
    await runtime.memory.remove(session.id, noted.eventId);
    await say(runtime, session.id, 'And my bike is red.');
    expect(shown(await runtime.memory.list())[0]![1]).toEqual([
      'user: My locker code is 4721.',
      'user: And my bike is red.',
      expect.stringMatching(/: Noted/),
    ]);
    await runtime.memory.removeSession(session.id);
    expect(await runtime.memory.list()).toEqual({ sessions: [], sessionCount: 0, memoryCount: 0 });
  });

  it('forgets what a rewound turn added (History’s rewind goes through the runner)', async () => {
    const { runtime } = open();
    const agentId = await agent(runtime);
    const session = await runtime.createSession(agentId);
    await say(runtime, session.id, 'My locker code is 4721.');
    await say(runtime, session.id, 'My bike is red.');
    const { events } = await runtime.openSession(session.id);
    const second = events.find((e) => textOf(e.content) === 'My bike is red.')!;
    await runtime.rewinds.rewind(session.id, second.invocationId);
    expect(shown(await runtime.memory.list())[0]![1]).toEqual([
      'user: My locker code is 4721.',
      expect.stringMatching(/: Noted/),
    ]);
    // Edit (a rewind, then the new turn) replaces the first turn's memories with the new ones.
    const first = events.find((e) => textOf(e.content) === 'My locker code is 4721.')!;
    await runEvents((onEvent) =>
      runtime.runs.edit(session.id, first.invocationId, 'My locker code is 9999.', onEvent),
    );
    expect(shown(await runtime.memory.list())[0]![1]).toEqual([
      'user: My locker code is 9999.',
      expect.stringMatching(/: Noted/),
    ]);
  });

  it('forgets a deleted session’s memories with it', async () => {
    const { runtime, broadcasts } = open();
    const agentId = await agent(runtime);
    const kept = await runtime.createSession(agentId, 'Kept');
    const gone = await runtime.createSession(agentId, 'Gone');
    await say(runtime, kept.id, 'Owls hunt at night.');
    await say(runtime, gone.id, 'Owls sleep by day.');
    broadcasts.length = 0;
    await runtime.deleteSession(gone.id);
    expect(broadcasts).toContainEqual({ type: 'memory-changed' });
    expect(shown(await runtime.memory.list()).map(([title]) => title)).toEqual(['Kept']);
  });

  it('pages sessions, the latest first, and names sessions memory outlived', async () => {
    const { runtime } = open();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const session = await runtime.createSession(undefined, `S${i}`);
      await runEvents((onEvent) => runtime.runs.send(session.id, `Hello ${i}`, onEvent));
      await runtime.memory.addSession(session.id);
      ids.push(session.id);
    }
    const first = await runtime.memory.list(0, 2);
    expect(first.sessions.map((s) => s.sessionId)).toEqual([ids[2], ids[1]]);
    expect(first).toMatchObject({ sessionCount: 3, next: 2 });
    const last = await runtime.memory.list(2, 2);
    expect(last.sessions.map((s) => s.sessionId)).toEqual([ids[0]]);
    expect(last.next).toBeUndefined();
    expect(last.sessions[0]).toMatchObject({ deleted: false, title: 'S0' });
  });

  it('refuses unknown ids and bad input with a clear error, and changes nothing', async () => {
    const { runtime, broadcasts } = open();
    const agentId = await agent(runtime);
    const session = await runtime.createSession(agentId);
    await say(runtime, session.id, 'My locker code is 4721.');
    const before = await runtime.memory.list();
    broadcasts.length = 0;
    const cases: [() => Promise<unknown>, RegExp][] = [
      [() => runtime.memory.remove(session.id, 'no-such-event'), /not there any more/],
      [() => runtime.memory.remove('no-such-session', 'e'), /not there any more/],
      [() => runtime.memory.removeSession('no-such-session'), /holds nothing of this session/],
      [() => runtime.memory.addSession('no-such-session'), /no-such-session/],
      [() => runtime.memory.remove(42 as never, 'e'), /not a session id/],
      [() => runtime.memory.remove(session.id, { eventId: 'x' } as never), /not a memory id/],
      [() => runtime.memory.addSession('x'.repeat(10_000)), /not a session id/],
      [() => runtime.memory.addSession('adk:server:app:s'), /ADK session/],
      [() => runtime.memory.list(-1), /offset must be a whole number/],
      [() => runtime.memory.list(0, Number.NaN), /limit must be a whole number/],
    ];
    for (const [call, message] of cases) {
      const error = await rejectionOf(call());
      expect(error.message).toMatch(message);
    }
    expect(await runtime.memory.list()).toEqual(before);
    expect(broadcasts).toEqual([]);
  });

  it('keeps hostile text as text and cuts a long one for the page', async () => {
    const { runtime } = open();
    const agentId = await agent(runtime);
    const session = await runtime.createSession(agentId);
    const hostile = `<img src=x onerror=alert(1)> ${'long '.repeat(2000)}`;
    await say(runtime, session.id, hostile);
    const [memory] = (await runtime.memory.list()).sessions[0]!.memories;
    expect(memory!.text).toBe(hostile.trim().slice(0, 2000));
    expect(memory!.length).toBe(hostile.trim().length);
  });
});
