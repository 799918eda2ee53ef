// Session files against the real ADK: what ADK's API server (@google/adk-devtools) serves imports
// into Trellis with its state and every event, and what Trellis exports ADK's own session service
// takes back unchanged.

import 'fake-indexeddb/auto';
import { InMemorySessionService, createEvent as adkEvent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { adkServerForSuite } from '../../adk/adk-server.ts';
import { appRuntime } from '../../support/app-runtime.ts';
import { fixtureSession } from '../../support/fixture-agent.ts';
import { startModelServer } from '../../support/model-server.ts';

type Json = Record<string, any>;

const adk = adkServerForSuite();

async function call(method: string, path: string, body?: unknown): Promise<Json> {
  const response = await fetch(`${adk().url}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text.startsWith('data:')
    ? {
        events: text
          .split('\n')
          .filter((l) => l.startsWith('data:'))
          .map((l) => JSON.parse(l.slice(5))),
      }
    : JSON.parse(text);
}

const sessionsOf = (app: string) => `/apps/${app}/users/u/sessions`;
const run = (app: string, sessionId: string, newMessage: Json) =>
  call('POST', '/run_sse', { appName: app, userId: 'u', sessionId, newMessage, streaming: true });

const runtime = appRuntime;

/** A served object without its null fields, as Trellis stores it (unset, not null). */
function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([key, field]) => [key, withoutNulls(field)]),
  );
}

/** An event without the empty values ADK's `createEvent` gives the fields an event leaves out. */
function withoutAdkDefaults(event: Json): Json {
  const { longRunningToolIds, ...rest } = event;
  const actions = { ...event.actions };
  for (const field of ['requestedAuthConfigs', 'requestedToolConfirmations'])
    if (Object.keys(actions[field] ?? {}).length === 0) delete actions[field];
  return {
    ...rest,
    actions,
    ...(longRunningToolIds?.length ? { longRunningToolIds } : {}),
  };
}

/** The file as ADK's own session service holds it: created with its state, events appended. */
async function loadIntoAdk(file: Json) {
  const adk = new InMemorySessionService();
  const session = await adk.createSession({
    appName: file.appName,
    userId: file.userId,
    state: file.state,
  });
  for (const event of file.events) await adk.appendEvent({ session, event: adkEvent(event) });
  return adk.getSession({ appName: file.appName, userId: file.userId, sessionId: session.id });
}

describe('ADK session files and the real ADK', () => {
  it('imports what the ADK API server serves: state and every event, a confirmation answered', async () => {
    const created = await call('POST', sessionsOf('approval'), { state: { wallet: 'w-1' } });
    const id = created.id as string;
    const asked = await run('approval', id, { role: 'user', parts: [{ text: 'send 5' }] });
    const request = asked.events
      .flatMap((e: Json) => e.content?.parts ?? [])
      .find((p: Json) => p.functionCall?.name === 'adk_request_confirmation').functionCall;
    await run('approval', id, {
      role: 'user',
      parts: [
        { functionResponse: { id: request.id, name: request.name, response: { confirmed: true } } },
      ],
    });
    const served = await call('GET', `${sessionsOf('approval')}/${id}`);
    expect(served.state).toMatchObject({ wallet: 'w-1', sent: 5 });

    const app = runtime();
    const imported = await app.importSession(JSON.stringify(served));
    const opened = await app.openSession(imported.id);
    // createSession's state comes first, then every event the server kept, in order.
    expect(opened.events[0]!.actions.stateDelta).toEqual({ wallet: 'w-1' });
    expect(opened.events.slice(1).map((e) => e.id)).toEqual(served.events.map((e: Json) => e.id));
    expect(opened.events.slice(1).map((e) => e.timestamp)).toEqual(
      served.events.map((e: Json) => e.timestamp),
    );
    expect(opened.state).toMatchObject({ wallet: 'w-1', sent: 5 });
    // Every event as the server served it (ADK's nulls are unset fields), the confirmation's
    // request with its longRunningToolIds and requestedToolConfirmations included.
    expect(JSON.parse(JSON.stringify(opened.events.slice(1)))).toEqual(
      served.events.map(withoutNulls),
    );
    const asking = opened.events.find((e) => e.longRunningToolIds?.length);
    expect(asking?.actions.requestedToolConfirmations).toBeDefined();
    const texts = opened.events
      .flatMap((e) => e.content?.parts ?? [])
      .map((p) => p.text)
      .filter(Boolean);
    expect(texts).toContain('send 5');
    expect(texts).toContain('Done: {"sent":5}');
  });

  it('exports what ADK takes back: its own session service stores the events unchanged', async () => {
    const initial = { topic: 'files', nested: { snake_key: [1, 2], camelKey: null } };
    const created = await call('POST', sessionsOf('echo'), { state: initial });
    await run('echo', created.id, { role: 'user', parts: [{ text: 'one' }] });
    await run('echo', created.id, { role: 'user', parts: [{ text: 'two' }] });
    const app = runtime();
    const served = await call('GET', `${sessionsOf('echo')}/${created.id}`);
    const local = await app.importSession(JSON.stringify(served));
    const imported = (await app.openSession(local.id)).events;
    // The streamed answers' final events, with their usage, as served; the partial ones the
    // server streamed were never in its session.
    expect(imported[0]!.actions.stateDelta).toEqual(initial);
    expect(JSON.parse(JSON.stringify(imported.slice(1)))).toEqual(served.events.map(withoutNulls));
    expect(imported.filter((e) => e.usageMetadata).length).toBe(2);
    expect(imported.some((e) => 'partial' in e)).toBe(false);
    const invocation = imported[1]!.invocationId;
    await app.rewinds.rewind(local.id, invocation);
    const file = JSON.parse((await app.exportSession(local.id)).json) as Json;
    expect(Object.keys(file).sort()).toEqual(
      ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
    );

    const back = await loadIntoAdk(file);
    // Equal but for the empty fields ADK's createEvent fills in where an event left them out.
    expect(JSON.parse(JSON.stringify(back!.events)).map(withoutAdkDefaults)).toEqual(
      file.events.map(withoutAdkDefaults),
    );
    // ADK applies the marker's state like any delta: the state is the rewound one, the
    // session's initial state (the user's own null kept).
    expect(file.state).toEqual(initial);
    expect(back!.state).toEqual(file.state);

    // The server's POST …/sessions keeps a file's state (ADK TypeScript's ignores its events).
    const posted = await call('POST', sessionsOf('echo'), {
      state: file.state,
      events: file.events,
    });
    const postedBack = await call('GET', `${sessionsOf('echo')}/${posted.id}`);
    expect(postedBack.state).toEqual(file.state);
  });

  it('exports answers cut short (stopped, cut off) as ADK takes them, its own interrupted flag set', async () => {
    const models = await startModelServer();
    try {
      const app = runtime();
      const id = await fixtureSession(app, models.url, 'fixture-stall-then-ok@adk');
      await app.runs.send(id, 'Why is the sky blue?', (event) => {
        if (event.partial) app.runs.stop(id);
      });
      // And a session whose answer a dropped connection cuts off.
      const cutId = await fixtureSession(app, models.url, 'fixture-disconnect-then-ok@adk');
      await app.runs.send(cutId, 'And the sea?', () => undefined).catch(() => undefined);
      for (const sessionId of [id, cutId]) {
        const file = JSON.parse((await app.exportSession(sessionId)).json) as Json;
        const cut = file.events.find((e: Json) => e.interrupted);
        expect(cut.customMetadata.trellis).toMatchObject(
          sessionId === id
            ? { stopped: true }
            : { cutOff: { errorCode: 'MODEL_STREAM_TRUNCATED' } },
        );
        const back = await loadIntoAdk(file);
        expect(JSON.parse(JSON.stringify(back!.events)).map(withoutAdkDefaults)).toEqual(
          file.events.map(withoutAdkDefaults),
        );
        // ADK's own event, made from ours, carries ADK's flag and the text said so far.
        const adkCut = adkEvent(cut);
        expect(adkCut.interrupted).toBe(true);
        expect(adkCut.content?.parts?.[0]?.text).toMatch(/^The sky/);
      }
    } finally {
      await models.close();
    }
  });

  it('exports a session without events as ADK takes it, its title on a no-op event', async () => {
    const app = runtime();
    const blank = await app.createSession(undefined, 'Blank page');
    const file = JSON.parse((await app.exportSession(blank.id)).json) as Json;
    const back = await loadIntoAdk(file);
    expect(JSON.parse(JSON.stringify(back!.events)).map(withoutAdkDefaults)).toEqual(
      file.events.map(withoutAdkDefaults),
    );
    expect(back!.state).toEqual({});
    const again = await app.importSession(JSON.stringify(file));
    expect(again.title).toBe('Blank page (imported)');
    expect((await app.openSession(again.id)).events).toEqual([]);
  });
});
