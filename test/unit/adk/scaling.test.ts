// Beyond one browser (docs/scaling.md): two ADK API server processes sharing one PostgreSQL
// through ADK's DatabaseSessionService, with Trellis as their UI. A session made through one
// server continues through the other mid-conversation, and each sees the other's turns; a
// confirmation asked through one is answered through the other.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import { startAdkServer, type AdkServer } from '../../adk/adk-server.ts';
import { appRuntime } from '../../support/app-runtime.ts';
import { startPostgres, type Postgres } from '../../adk/postgres.ts';

let postgres: Postgres | undefined;
const servers: AdkServer[] = [];
beforeAll(async () => {
  postgres = await startPostgres();
  for (let i = 0; i < 2; i++)
    servers.push(await startAdkServer({ sessionServiceUri: postgres.url }));
}, 180_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  postgres?.stop();
});

const texts = (events: readonly Event[]) =>
  events.map((event) => textOf(event.content)).filter((text) => text !== '');

async function twoServers() {
  const app = appRuntime();
  const a = await app.remote.addServer(servers[0]!.url, 'ada');
  const b = await app.remote.addServer(servers[1]!.url, 'ada');
  return { app, a, b };
}

// Two servers and a database answer each step: seconds on a loaded machine, over vitest's 5 s.
describe('two ADK servers over one PostgreSQL', { timeout: 30_000 }, () => {
  it('continues a session through the other server, and each sees every turn', async () => {
    const { app, a, b } = await twoServers();
    const viaA = await app.createSession(`adk:${a.id}:echo`);
    await app.runs.send(viaA.id, 'first, through A', () => {});

    // B lists the session A made, with its events, and the next turn runs through B.
    const listed = await app.remote.remoteSessions(b.id, 'echo');
    const remoteId = viaA.remote!.sessionId;
    expect(listed.map((s) => s.sessionId)).toContain(remoteId);
    const viaB = await app.remote.openRemoteSession(b.id, 'echo', remoteId);
    const seenByB = await app.openSessionSummary(viaB.id);
    expect(texts(seenByB.activeTail.map((e) => e.event))).toEqual([
      'first, through A',
      'You said: first, through A',
    ]);
    await app.runs.send(viaB.id, 'second, through B', () => {});

    // A sees B's turn.
    const seenByA = await app.openSessionSummary(viaA.id);
    expect(texts(seenByA.activeTail.map((e) => e.event))).toEqual([
      'first, through A',
      'You said: first, through A',
      'second, through B',
      'You said: second, through B',
    ]);
    expect(seenByA.activePath.map((turn) => turn.text)).toEqual([
      'first, through A',
      'second, through B',
    ]);
  });

  it('answers through one server the confirmation asked through the other', async () => {
    const { app, a, b } = await twoServers();
    const viaA = await app.createSession(`adk:${a.id}:approval`);
    const asked: Event[] = [];
    await app.runs.send(viaA.id, 'send 7', (event) => asked.push(event));
    const request = asked
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    const viaB = await app.remote.openRemoteSession(b.id, 'approval', viaA.remote!.sessionId);
    await app.runs.answer(viaB.id, request.id!, true, undefined, () => {});
    const seenByA = await app.openSessionSummary(viaA.id);
    expect(seenByA.state).toMatchObject({ sent: 7 });
    expect(texts(seenByA.activeTail.map((e) => e.event))).toContain('Done: {"sent":7}');
  });
});
