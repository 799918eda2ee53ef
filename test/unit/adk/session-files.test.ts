// Session files against the real ADK: what ADK's API server (@google/adk-devtools) serves imports
// into Trellis with its state and every event, and what Trellis exports ADK's own session service
// takes back unchanged.

import 'fake-indexeddb/auto';
import { InMemorySessionService, createEvent as adkEvent } from '@google/adk';
import { describe, expect, it } from 'vitest';
import { adkServerForSuite } from '../../adk/adk-server.ts';
import { appRuntime } from '../../support/app-runtime.ts';

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
    const texts = opened.events
      .flatMap((e) => e.content?.parts ?? [])
      .map((p) => p.text)
      .filter(Boolean);
    expect(texts).toContain('send 5');
    expect(texts).toContain('Done: {"sent":5}');
  });

  it('exports what ADK takes back: its own session service stores the events unchanged', async () => {
    const created = await call('POST', sessionsOf('echo'), {});
    await run('echo', created.id, { role: 'user', parts: [{ text: 'one' }] });
    await run('echo', created.id, { role: 'user', parts: [{ text: 'two' }] });
    const app = runtime();
    const local = await app.importSession(
      JSON.stringify(await call('GET', `${sessionsOf('echo')}/${created.id}`)),
    );
    const invocation = (await app.openSession(local.id)).events[0]!.invocationId;
    await app.rewind(local.id, invocation);
    const file = JSON.parse((await app.exportSession(local.id)).json) as Json;
    expect(Object.keys(file).sort()).toEqual(
      ['appName', 'events', 'id', 'lastUpdateTime', 'state', 'userId'].sort(),
    );

    const adk = new InMemorySessionService();
    const session = await adk.createSession({
      appName: file.appName,
      userId: file.userId,
      state: file.state,
    });
    for (const event of file.events) await adk.appendEvent({ session, event: adkEvent(event) });
    const back = await adk.getSession({
      appName: file.appName,
      userId: file.userId,
      sessionId: session.id,
    });
    // Equal but for the empty fields ADK's createEvent fills in where an event left them out.
    expect(JSON.parse(JSON.stringify(back!.events)).map(withoutAdkDefaults)).toEqual(
      file.events.map(withoutAdkDefaults),
    );
    // ADK applies the marker's state like any delta: the state is the rewound one.
    expect(back!.state).toEqual(file.state);

    // The server's POST …/sessions keeps a file's state (ADK TypeScript's ignores its events).
    const posted = await call('POST', sessionsOf('echo'), {
      state: file.state,
      events: file.events,
    });
    const served = await call('GET', `${sessionsOf('echo')}/${posted.id}`);
    expect(served.state).toEqual(file.state);
  });
});
