// appendEvent of the IndexedDB session service writes from the session record it remembers,
// without waiting for a read. What that must not break: a second service on the same database (a
// second tab) appending, rewinding, deleting or recreating the session meanwhile; duplicate event
// ids; resumed invocations; call order.

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexedDbSessionService, createEvent, type Event } from '../../../src/index.ts';
import { Stores, sessionRange } from '../../../src/store/database.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

const appName = 'app';
const userId = 'u1';
const sessionId = 's1';
const key = { appName, userId, sessionId };
const session = { appName, userId, id: sessionId };

const toClose: IndexedDbSessionService[] = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((service) => service.close()));
});

/** Two services on one database, as two tabs have. */
function twoTabs() {
  const dbName = freshDbName();
  const a = new IndexedDbSessionService({ dbName });
  const b = new IndexedDbSessionService({ dbName });
  toClose.push(a, b);
  return { a, b };
}

let counter = 0;
function event(invocationId: string, stateDelta: Record<string, unknown> = {}): Event {
  counter++;
  return createEvent({
    id: `e-${counter}`,
    invocationId,
    author: 'user',
    content: { role: 'user', parts: [{ text: `event ${counter}` }] },
    actions: { stateDelta },
  });
}

/** The session's events as stored, in seq order, read raw (no service cache). */
async function storedEvents(service: IndexedDbSessionService): Promise<Event[]> {
  const db = await service.openDatabase();
  const records = await db.getAll(Stores.events, sessionRange(appName, userId, sessionId));
  return records.map((record) => record.event);
}

const ids = (events: readonly Event[]) => events.map((e) => e.id);

describe('IndexedDB appendEvent from a remembered session record', () => {
  it('two services appending alternately to one session both land, in order', async () => {
    const { a, b } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    const written: Event[] = [];
    for (let i = 0; i < 6; i++) {
      const service = i % 2 === 0 ? a : b;
      // Each service's remembered record is stale after the other's append.
      written.push(await service.appendEvent({ session, event: event(`inv-${i}`, { n: i }) }));
    }
    expect(ids(await storedEvents(a))).toEqual(ids(written));
    for (const service of [a, b]) {
      const read = await service.getSession(key);
      expect(ids(read!.events)).toEqual(ids(written));
      expect(read!.state).toEqual({ n: 5 });
    }
    const checkpoint = await b.getInvocationCheckpoint({ ...key, invocationId: 'inv-3' });
    expect(checkpoint).toMatchObject({ firstSeq: 3, state: { n: 2 } });
  });

  it('two services appending at the same time lose nothing', async () => {
    const { a, b } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    await Promise.all([
      a.appendEvent({ session, event: event('inv-a') }),
      b.appendEvent({ session, event: event('inv-b') }),
    ]);
    const appended = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 ? a : b).appendEvent({ session, event: event(`inv-${i}`) }),
      ),
    );
    const stored = await storedEvents(a);
    expect(stored).toHaveLength(8);
    expect(ids(stored)).toEqual(expect.arrayContaining(ids(appended)));
    const read = await b.getSession(key);
    expect(ids(read!.events)).toEqual(ids(stored));
  });

  it('keeps the call order of one service’s concurrent appends', async () => {
    const { a } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    const events = Array.from({ length: 8 }, (_, i) => event(`inv-${i >> 1}`, { n: i }));
    await Promise.all(events.map((e) => a.appendEvent({ session, event: e })));
    expect(ids(await storedEvents(a))).toEqual(ids(events));
    expect((await a.getSession(key))!.state).toEqual({ n: 7 });
  });

  it('after another service deleted the session: SessionNotFoundError, nothing written', async () => {
    const { a, b } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    await a.appendEvent({ session, event: event('inv-1', { n: 1 }) });
    await b.deleteSession(key);
    const error = await rejectionOf(a.appendEvent({ session, event: event('inv-1') }));
    expect(error.name).toBe('SessionNotFoundError');
    expect(await storedEvents(a)).toEqual([]);
    expect(await a.getSession(key)).toBeUndefined();
    expect(await b.getInvocationCheckpoint({ ...key, invocationId: 'inv-1' })).toBeUndefined();
  });

  const recreations: {
    name: string;
    recreate: (b: IndexedDbSessionService) => Promise<unknown>;
    events: number;
    state: Record<string, unknown>;
  }[] = [
    {
      name: 'createSession, empty',
      recreate: (b) => b.createSession({ appName, userId, sessionId }),
      events: 0,
      state: {},
    },
    {
      name: 'createSession with state',
      recreate: (b) => b.createSession({ appName, userId, sessionId, state: { fresh: true } }),
      events: 1,
      state: { fresh: true },
    },
    {
      name: 'importSession, shorter log',
      recreate: (b) =>
        b.importSession({ appName, userId, sessionId, events: [event('x', { imported: 1 })] }),
      events: 1,
      state: { imported: 1 },
    },
    {
      name: 'importSession, log as long',
      recreate: (b) =>
        b.importSession({
          appName,
          userId,
          sessionId,
          events: [event('x', { imported: 1 }), event('x'), event('y', { imported: 2 })],
        }),
      events: 3,
      state: { imported: 2 },
    },
    {
      name: 'importSession, longer log',
      recreate: (b) =>
        b.importSession({
          appName,
          userId,
          sessionId,
          events: Array.from({ length: 5 }, (_, i) => event(`x${i}`, { imported: i })),
        }),
      events: 5,
      state: { imported: 4 },
    },
    {
      name: 'forkSession of another session',
      recreate: async (b) => {
        const source = await b.createSession({ appName, userId, sessionId: 'source' });
        const at = event('fork-at', { forked: true });
        await b.appendEvent({ session: source, event: at });
        await b.forkSession({
          appName,
          userId,
          sessionId: 'source',
          atInvocationId: 'fork-at',
          newSessionId: sessionId,
        });
      },
      events: 1,
      state: { forked: true },
    },
  ];

  it.each(recreations)(
    'after another service deleted and recreated it ($name): appends to the new one',
    async ({ recreate, events, state }) => {
      const { a, b } = twoTabs();
      await a.createSession({ appName, userId, sessionId, state: { old: 1 } });
      await a.appendEvent({ session, event: event('old-1', { old: 2 }) });
      await a.appendEvent({ session, event: event('old-1', { old: 3 }) });
      await b.deleteSession(key);
      await recreate(b);
      const appended = await a.appendEvent({ session, event: event('new-1', { after: true }) });
      const stored = await storedEvents(b);
      expect(stored).toHaveLength(events + 1);
      expect(stored.at(-1)!.id).toBe(appended.id);
      const read = await b.getSession(key);
      expect(ids(read!.events)).toEqual(ids(stored));
      expect(read!.state).toEqual({ ...state, after: true });
      const checkpoint = await b.getInvocationCheckpoint({ ...key, invocationId: 'new-1' });
      expect(checkpoint).toMatchObject({ firstSeq: events, state });
    },
  );

  it('after another service rewound the session: appends after the marker', async () => {
    const { a, b } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    await a.appendEvent({ session, event: event('inv-1', { n: 1 }) });
    await a.appendEvent({ session, event: event('inv-2', { n: 2 }) });
    const marker = await b.rewindSession({ ...key, rewindBeforeInvocationId: 'inv-2' });
    const appended = await a.appendEvent({ session, event: event('inv-3', { m: 3 }) });
    const stored = await storedEvents(a);
    expect(stored.slice(-2).map((e) => e.id)).toEqual([marker.id, appended.id]);
    expect((await a.getSession(key))!.state).toEqual({ n: 1, m: 3 });
  });

  it('a duplicate event id is still refused, and the whole append undone', async () => {
    const { a } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    const first = await a.appendEvent({ session, event: event('inv-1', { n: 1 }) });
    const again = {
      ...first,
      invocationId: 'inv-2',
      actions: { stateDelta: { n: 2, 'app:x': 1 }, artifactDelta: {} },
    };
    const error = await rejectionOf(a.appendEvent({ session, event: again }));
    expect(error.name).toBe('DuplicateEventError');
    expect(ids(await storedEvents(a))).toEqual([first.id]);
    expect((await a.getSession(key))!.state).toEqual({ n: 1 });
    expect(await a.getInvocationCheckpoint({ ...key, invocationId: 'inv-2' })).toBeUndefined();
    // The queue goes on after a failed append.
    await a.appendEvent({ session, event: event('inv-2', { n: 2 }) });
    expect((await a.getSession(key))!.state).toEqual({ n: 2 });
  });

  it('a duplicate event id is refused when the remembered record is stale too', async () => {
    const { a, b } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    const first = await a.appendEvent({ session, event: event('inv-1') });
    await b.appendEvent({ session, event: event('inv-2') });
    const error = await rejectionOf(a.appendEvent({ session, event: first }));
    expect(error.name).toBe('DuplicateEventError');
    expect(await storedEvents(a)).toHaveLength(2);
  });

  it('keeps the checkpoint of an invocation resumed after another one', async () => {
    const { a } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    await a.appendEvent({ session, event: event('long', { step: 1 }) });
    await a.appendEvent({ session, event: event('other', { step: 2 }) });
    await a.appendEvent({ session, event: event('long', { step: 3 }) });
    const checkpoint = await a.getInvocationCheckpoint({ ...key, invocationId: 'long' });
    expect(checkpoint).toMatchObject({ firstSeq: 0, state: {} });
    expect((await a.getSession(key))!.state).toEqual({ step: 3 });
    expect(await storedEvents(a)).toHaveLength(3);
  });

  it('app and user state written by another service are not overwritten', async () => {
    const { a, b } = twoTabs();
    await a.createSession({ appName, userId, sessionId });
    await b.createSession({ appName, userId, sessionId: 'other' });
    await a.appendEvent({ session, event: event('inv-1', { 'app:a': 1, 'user:u': 1 }) });
    await b.appendEvent({
      session: { appName, userId, id: 'other' },
      event: event('inv-2', { 'app:b': 2, 'user:v': 2 }),
    });
    await a.appendEvent({ session, event: event('inv-3', { 'app:c': 3 }) });
    expect((await b.getSession(key))!.state).toEqual({
      'app:a': 1,
      'app:b': 2,
      'app:c': 3,
      'user:u': 1,
      'user:v': 2,
    });
  });
});
