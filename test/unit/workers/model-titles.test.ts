// Titles written by the model (workers/sessions/model-titles.ts) in the app's runtime (Node over
// fake-indexeddb), against models over real HTTP (the fixture server; a gated server of its own
// for what happens while the title is asked): after a first answer the session's model titles
// it; a stopped or failed turn, a rename, a deleted session, the demo and local models, the
// Settings switch and every failure of the model leave the first message's title and write
// nothing; "Write a title" asks any model now, and says why when it cannot.

import 'fake-indexeddb/auto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { MODEL_CHAT_ID, type RuntimeBroadcast } from '../../../workers/protocol.ts';
import type { Event } from '../../../src/index.ts';
import { LocalModels } from '../../../workers/local-models/local-models.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { TITLE_TASK } from '../../../workers/sessions/title-prompt.ts';
import { fixtureProvider } from '../../support/app-runtime.ts';
import { CountingEngine } from '../../support/counting-engine.ts';
import { fixtureSession, runEvents } from '../../support/fixture-agent.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { readBody, startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());
afterEach(() => vi.restoreAllMocks());

const QUESTION = 'Why is the sky blue?';
const ANSWER = 'The sky is blue because air scatters blue light most.';

function open(localModels?: LocalModels) {
  const broadcasts: RuntimeBroadcast[] = [];
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: (message) => broadcasts.push(message),
    timing: { thinkMs: 0, chunkDelayMs: 0 },
    modelHttp: { maxRetries: 0 },
    ...(localModels ? { localModels } : {}),
  });
  return { runtime, broadcasts };
}

const titleRequests = (since: number) => server.titleRequests.slice(since);

/** Sends `text` (`each` sees its events), then waits for the title requests it started. */
async function send(
  runtime: AppRuntime,
  sessionId: string,
  text = QUESTION,
  each: (event: Event) => void = () => undefined,
) {
  const run = await runEvents((onEvent) =>
    runtime.runs.send(sessionId, text, (event) => {
      onEvent(event);
      each(event);
    }),
  );
  await runtime.runs.titles.settled();
  return run;
}

const titleOf = async (runtime: AppRuntime, id: string) =>
  (await runtime.listSessions()).find((session) => session.id === id)?.title;

describe('after the first answer', () => {
  it('the model that answered titles the session, outside the conversation', async () => {
    const { runtime, broadcasts } = open();
    const id = await fixtureSession(runtime, server.url, 'fixture-titles');
    const since = server.titleRequests.length;
    const { error } = await send(runtime, id);
    expect(error).toBeUndefined();
    expect(await titleOf(runtime, id)).toBe('Sky colour');
    // Said as a rename is, after the run let go (its `busy: false`).
    const busyOff = broadcasts.findIndex((m) => m.type === 'busy-changed' && !m.busy);
    expect(broadcasts.findLastIndex((m) => m.type === 'sessions-changed')).toBeGreaterThan(busyOff);

    const [asked, ...more] = titleRequests(since);
    expect(more).toEqual([]);
    expect(asked!.body).toMatchObject({ model: 'fixture-titles', temperature: 0.2 });
    expect(asked!.body.max_tokens).toBeGreaterThanOrEqual(256);
    const sent = JSON.stringify(asked!.body.messages);
    expect(sent).toContain(QUESTION);
    expect(sent).toContain(ANSWER);
    // Not part of the session: the log holds the turn alone, the state is as it was.
    const snapshot = await runtime.openSession(id);
    expect(new Set(snapshot.events.map((e) => e.author))).toEqual(new Set(['user', 'sky']));
    expect(JSON.stringify(snapshot.events)).not.toMatch(/Sky colour|You write the title/);
    expect(snapshot.state).toEqual({});
    expect(await runtime.runs.interruptedRuns()).toEqual([]);
  });

  it('is asked once: a second turn leaves the title alone', async () => {
    const { runtime } = open();
    const id = await fixtureSession(runtime, server.url, 'fixture-titles');
    await send(runtime, id);
    const since = server.titleRequests.length;
    await runtime.renameSession(id, 'Mine');
    await send(runtime, id, 'And at sunset?');
    expect(titleRequests(since)).toEqual([]);
    expect(await titleOf(runtime, id)).toBe('Mine');
  });

  it('titles a chat with a model, and a flow by its model', async () => {
    const { runtime } = open();
    await runtime.providers.save(fixtureProvider(server.url, { defaultModel: 'fixture-titles' }));
    const chat = (await runtime.createSession(MODEL_CHAT_ID)).id;
    await send(runtime, chat);
    expect(await titleOf(runtime, chat)).toBe('Sky colour');

    const flow = {
      name: 'asker',
      nodes: [
        { id: 'start', type: 'start' },
        { id: 'talk', type: 'llm', model: 'Fixture/fixture-titles', instruction: 'Answer.' },
        { id: 'end', type: 'end' },
      ],
      edges: [
        { from: 'start', to: 'talk' },
        { from: 'talk', to: 'end' },
      ],
    };
    const { saved } = await runtime.flows.save(JSON.stringify(flow));
    const flowSession = (await runtime.createSession(saved!.id)).id;
    const since = server.titleRequests.length;
    await send(runtime, flowSession);
    expect(titleRequests(since)[0]!.body.model).toBe('fixture-titles');
    expect(await titleOf(runtime, flowSession)).toBe('Sky colour');
  });

  it('is not asked after a stopped turn, nor after a failed one', async () => {
    const { runtime } = open();
    const stopped = await fixtureSession(runtime, server.url, 'fixture-stall@titles');
    const since = server.titleRequests.length;
    await send(runtime, stopped, QUESTION, (event) => {
      if (event.partial) runtime.runs.stop(stopped);
    });
    expect(await titleOf(runtime, stopped)).toBe(QUESTION);

    const failed = await fixtureSession(runtime, server.url, 'fixture-503');
    const { error } = await send(runtime, failed);
    expect(error).toBeDefined();
    expect(await titleOf(runtime, failed)).toBe(QUESTION);
    expect(titleRequests(since)).toEqual([]);
  });

  it('leaves a title the user gave during the turn', async () => {
    const { runtime } = open();
    const id = await fixtureSession(runtime, server.url, 'fixture-titles');
    const since = server.titleRequests.length;
    await send(runtime, id, QUESTION, (event) => {
      if (event.author === 'sky' && !event.partial) void runtime.renameSession(id, 'Mine');
    });
    expect(await titleOf(runtime, id)).toBe('Mine');
    expect(titleRequests(since)).toEqual([]);
  });

  it('is not asked of the demo model, nor of a local model', async () => {
    const engine = new CountingEngine(4096);
    const { runtime } = open(
      new LocalModels({
        save: async () => undefined,
        remove: async () => undefined,
        load: async () => Object.assign(engine, { exit: async () => {} }),
      }),
    );
    const long = 'set color to red, and tell me what the state holds now please';
    const demo = (await runtime.createSession('state-keeper')).id;
    await send(runtime, demo, long);
    expect(await titleOf(runtime, demo)).toBe(`${long.slice(0, 47)}…`);

    const local = await runtime.providers.addLocal(
      new File(['GGUF', new Uint8Array(60)], 'tiny.gguf'),
    );
    const { saved } = await runtime.agentSpecs.save({
      name: 'near',
      description: '',
      providerId: local.id,
      model: '',
      instruction: 'Answer.',
      tools: [],
      subAgentIds: [],
      resumable: true,
    });
    const nearby = (await runtime.createSession(saved!.agentId)).id;
    await send(runtime, nearby);
    expect(engine.sent).toHaveLength(1);
    expect(await titleOf(runtime, nearby)).toBe(QUESTION);

    // Asked, they title it: the local engine answers "ok"; the demo its rule.
    expect(await runtime.runs.titles.write(nearby)).toEqual({ title: 'ok', before: QUESTION });
    expect(engine.sent).toHaveLength(2);
    expect(await runtime.runs.titles.write(demo)).toMatchObject({
      title: 'Set color to red, and tell',
    });
    expect(await titleOf(runtime, demo)).toBe('Set color to red, and tell');
  });

  it('is off with the Settings switch; the menu still asks', async () => {
    const { runtime } = open();
    expect((await runtime.settings()).modelTitles).toBe(true);
    await runtime.updateSettings({ modelTitles: false });
    const id = await fixtureSession(runtime, server.url, 'fixture-titles');
    const since = server.titleRequests.length;
    await send(runtime, id);
    expect(titleRequests(since)).toEqual([]);
    expect(await titleOf(runtime, id)).toBe(QUESTION);
    expect(await runtime.runs.titles.write(id)).toEqual({ title: 'Sky colour', before: QUESTION });
  });

  it.each([
    ['fixture-titles-500', /500|server had an error/i],
    ['fixture-titles-cut', /stopped before it was complete|connection|network|terminated/i],
    ['fixture-titles-empty', /held no title/],
    ['fixture-titles-length', /./],
    ['fixture-titles-401', /401|API key/i],
  ])('%s: keeps the first message’s title, writes nothing, warns', async (model, reason) => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { runtime, broadcasts } = open();
    await runtime.providers.save(
      fixtureProvider(server.url, { apiKey: 'sk-test-SECRET-key', defaultModel: model }),
    );
    const id = (await runtime.createSession(MODEL_CHAT_ID)).id;
    const since = server.titleRequests.length;
    const { error } = await send(runtime, id);
    expect(error).toBeUndefined();
    expect(titleRequests(since)).toHaveLength(1);
    expect(await titleOf(runtime, id)).toBe(QUESTION);
    // Written once (the first message's title), and not again.
    expect(broadcasts.filter((m) => m.type === 'sessions-changed')).toHaveLength(2);
    expect(warn).toHaveBeenCalledTimes(1);
    const warning = String(warn.mock.calls[0]![0]);
    expect(warning).toMatch(reason);
    expect(warning).not.toMatch(/SECRET|authorization|bearer/i);

    // Asked from the menu, it says why, with no key either, and changes nothing.
    const asked = await rejectionOf(runtime.runs.titles.write(id));
    expect(asked.name).toBe('ModelError');
    expect(asked.message).toMatch(/^The model wrote no title: /);
    expect(asked.message).not.toMatch(/SECRET|authorization|bearer/i);
    expect(await titleOf(runtime, id)).toBe(QUESTION);
  });
});

/**
 * An OpenAI-compatible server of its own that holds title requests until `release()`; with
 * `quoteKey`, it then refuses them quoting the request's Authorization header (as some do).
 */
async function gatedServer({ quoteKey = false } = {}) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let asked!: () => void;
  const titleAsked = new Promise<void>((resolve) => (asked = resolve));
  const http: Server = createServer((req, res) => {
    void readBody(req).then(async (raw) => {
      const title = JSON.stringify(JSON.parse(raw)).includes(TITLE_TASK);
      if (title) {
        asked();
        await gate;
      }
      if (title && quoteKey) {
        res.writeHead(401, { 'content-type': 'application/json' });
        const message = `Incorrect API key provided: ${req.headers.authorization}`;
        return void res.end(JSON.stringify({ error: { message } }));
      }
      const chunk = (delta: object, finish: string | null) =>
        `data: ${JSON.stringify({ choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: title ? 'Sky colour' : ANSWER }, null));
      res.end(`${chunk({}, 'stop')}data: [DONE]\n\n`);
    });
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const close = () => new Promise<void>((resolve) => http.close(() => resolve()));
  return { url, release, titleAsked, close };
}

describe('while the title is asked', () => {
  async function gatedSession() {
    const gated = await gatedServer();
    const { runtime } = open();
    await runtime.providers.save(fixtureProvider(gated.url, { defaultModel: 'gated' }));
    const id = (await runtime.createSession(MODEL_CHAT_ID)).id;
    await runEvents((onEvent) => runtime.runs.send(id, QUESTION, onEvent));
    await gated.titleAsked;
    return { runtime, id, gated };
  }

  it('a rename wins over the model’s title', async () => {
    const { runtime, id, gated } = await gatedSession();
    await runtime.renameSession(id, 'Mine');
    gated.release();
    await runtime.runs.titles.settled();
    expect(await titleOf(runtime, id)).toBe('Mine');
    await gated.close();
  });

  it('a deleted session gets nothing, and no warning', async () => {
    const warn = vi.spyOn(console, 'warn');
    const { runtime, id, gated } = await gatedSession();
    await runtime.deleteSession(id);
    gated.release();
    await runtime.runs.titles.settled();
    expect(await runtime.listSessions()).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
    await gated.close();
  });

  it('a second turn runs, and the title still comes', async () => {
    const { runtime, id, gated } = await gatedSession();
    const second = await runEvents((onEvent) => runtime.runs.send(id, 'And why?', onEvent));
    expect(second.error).toBeUndefined();
    gated.release();
    await runtime.runs.titles.settled();
    expect(await titleOf(runtime, id)).toBe('Sky colour');
    await gated.close();
  });
});

describe('a provider that quotes the key back', () => {
  it('has it hidden from the warning and from the menu’s error', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const gated = await gatedServer({ quoteKey: true });
    gated.release();
    const { runtime } = open();
    const key = 'sk-test-SECRET-0123456789';
    await runtime.providers.save(
      fixtureProvider(gated.url, { defaultModel: 'gated', apiKey: key }),
    );
    const id = (await runtime.createSession(MODEL_CHAT_ID)).id;
    await send(runtime, id);
    expect(await titleOf(runtime, id)).toBe(QUESTION);
    const warning = String(warn.mock.calls[0]![0]);
    expect(warning).toMatch(/Incorrect API key provided/);
    expect(warning).not.toContain('SECRET');
    const error = await rejectionOf(runtime.runs.titles.write(id));
    expect(error.message).toMatch(/Incorrect API key provided/);
    expect(error.message).not.toContain('SECRET');
    await gated.close();
  });
});

describe('Write a title', () => {
  it('overwrites any title and says which it replaced (the Undo puts it back)', async () => {
    const { runtime } = open();
    const id = await fixtureSession(runtime, server.url, 'fixture-titles');
    await send(runtime, id);
    await runtime.renameSession(id, 'Mine');
    expect(await runtime.runs.titles.write(id)).toEqual({ title: 'Sky colour', before: 'Mine' });
    await runtime.renameSession(id, 'Mine');
    expect(await titleOf(runtime, id)).toBe('Mine');
  });

  it.each([
    ['an unknown session', 'no-such-session', 'SessionNotFoundError'],
    ['a session on an ADK server', 'adk:server:app:id', 'InvalidRequestError'],
  ])('refuses %s', async (_, id, name) => {
    const { runtime } = open();
    expect((await rejectionOf(runtime.runs.titles.write(id))).name).toBe(name);
  });

  it('refuses a session with no message yet, and changes nothing', async () => {
    const { runtime } = open();
    const { id } = await runtime.createSession('state-keeper');
    const error = await rejectionOf(runtime.runs.titles.write(id));
    expect(error).toMatchObject({ name: 'InvalidRequestError' });
    expect(error.message).toMatch(/Send a message first/);
    expect(await titleOf(runtime, id)).toBe('New session');
  });
});
