// Long state values in IndexedDB: written once, out of line, and named by id from the session
// record and the checkpoints (src/store/long-values.ts), so that an event that leaves a 1 MB value
// alone does not read, compare or write it again. What must hold: every reader sees the whole
// state, as if the values were inline — after appends, a reload, a rewind either way, a fork, an
// export and import, a second service on the same database — and deleting the session leaves none.

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import { IndexedDbSessionService, createEvent, type Event } from '../../../src/index.ts';
import { Stores, sessionRange } from '../../../src/store/database.ts';
import { LONG_VALUE_CHARS, forgetLongValues } from '../../../src/store/long-values.ts';
import { freshDbName } from '../../support/helpers.ts';

const appName = 'app';
const userId = 'u1';
const sessionId = 's1';
const key = { appName, userId, sessionId };
const session = { appName, userId, id: sessionId };

const toClose: IndexedDbSessionService[] = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((service) => service.close()));
});

function service(dbName = freshDbName()): IndexedDbSessionService {
  const made = new IndexedDbSessionService({ dbName });
  toClose.push(made);
  return made;
}

const longText = (seed: string) =>
  `${seed} `.repeat(LONG_VALUE_CHARS).slice(0, LONG_VALUE_CHARS * 3);
const longObject = () => ({
  records: Array.from({ length: 2_000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ['a'] })),
});

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

/** What the database holds for the session, read raw. */
async function raw(store: IndexedDbSessionService) {
  const db = await store.openDatabase();
  const [record, values, checkpoints] = await Promise.all([
    db.get(Stores.sessions, [appName, userId, sessionId]),
    db.getAll(Stores.longValues, sessionRange(appName, userId, sessionId)),
    db.getAll(Stores.checkpoints, sessionRange(appName, userId, sessionId)),
  ]);
  return { record, values, checkpoints };
}

/** The session's state as a fresh service reads it, with nothing cached. */
async function stateAfterReload(dbName: string) {
  forgetLongValues();
  const fresh = service(dbName);
  return (await fresh.getSession(key))?.state;
}

describe('long state values in IndexedDB', () => {
  it('are written once and read back whole, however many events follow', async () => {
    const dbName = freshDbName();
    const store = service(dbName);
    await store.createSession(key);
    const text = longText('lorem');
    const object = longObject();
    await store.appendEvent({ session, event: event('i1', { text, object, short: 1 }) });
    for (let i = 0; i < 10; i++)
      await store.appendEvent({ session, event: event(`i${2 + (i >> 1)}`, { short: i + 2 }) });

    const { record, values, checkpoints } = await raw(store);
    expect(values.map((row) => row.value).sort()).toEqual([object, text].sort());
    expect(Object.keys(record!.state)).toEqual(['short']);
    expect(Object.keys(record!.long!).sort()).toEqual(['object', 'text']);
    for (const checkpoint of checkpoints)
      expect(JSON.stringify(checkpoint).length).toBeLessThan(2_000);

    const expected = { text, object, short: 11 };
    expect((await store.getSession(key))!.state).toEqual(expected);
    expect(await stateAfterReload(dbName)).toEqual(expected);
  });

  it('a key set again gets a new value, and a rewind brings back each one it had', async () => {
    const dbName = freshDbName();
    const store = service(dbName);
    await store.createSession(key);
    const first = longText('first');
    const second = longText('second');
    await store.appendEvent({ session, event: event('i1', { big: first }) });
    await store.appendEvent({ session, event: event('i2', { big: second }) });
    await store.appendEvent({ session, event: event('i3', { big: null }) });
    expect((await raw(store)).values).toHaveLength(2);

    await store.rewindSession({ ...key, rewindBeforeInvocationId: 'i3' });
    expect((await store.getSession(key))!.state).toEqual({ big: second });
    expect(await stateAfterReload(dbName)).toEqual({ big: second });

    await store.rewindSession({ ...key, rewindBeforeInvocationId: 'i2' });
    expect(await stateAfterReload(dbName)).toEqual({ big: first });
    const checkpoint = await service(dbName).getInvocationCheckpoint({
      ...key,
      invocationId: 'i3',
    });
    expect(checkpoint?.state).toEqual({ big: second });

    await store.rewindSession({ ...key, rewindBeforeInvocationId: 'i1' });
    expect(await stateAfterReload(dbName)).toEqual({});
  });

  it('any key, `__proto__` and `constructor` included, is kept out of line like another', async () => {
    const dbName = freshDbName();
    const store = service(dbName);
    await store.createSession(key);
    const delta = JSON.parse(
      `{"__proto__": "${longText('proto')}", "constructor": "${longText('c')}", "x": 1}`,
    ) as Record<string, unknown>;
    expect(Object.keys(delta)).toEqual(['__proto__', 'constructor', 'x']);
    await store.appendEvent({ session, event: event('i1', delta) });
    await store.appendEvent({ session, event: event('i2', { x: 2 }) });
    const state = (await stateAfterReload(dbName))!;
    expect(Object.getPrototypeOf(state)).toBe(Object.prototype);
    expect(Object.keys(state).sort()).toEqual(['__proto__', 'constructor', 'x']);
    expect(Object.getOwnPropertyDescriptor(state, '__proto__')?.value).toBe(longText('proto'));
    expect(Object.getOwnPropertyDescriptor(state, 'constructor')?.value).toBe(longText('c'));
  });

  it('a second service appending meanwhile sees and keeps the same values', async () => {
    const dbName = freshDbName();
    const a = service(dbName);
    const b = service(dbName);
    await a.createSession(key);
    const text = longText('shared');
    await a.appendEvent({ session, event: event('i1', { text }) });
    await b.appendEvent({ session, event: event('i2', { n: 1 }) });
    await a.appendEvent({ session, event: event('i3', { n: 2 }) });
    await b.appendEvent({ session, event: event('i3', { other: longText('b') }) });
    expect(await stateAfterReload(dbName)).toEqual({ text, n: 2, other: longText('b') });
    expect((await a.getSession(key))!.state).toEqual({ text, n: 2, other: longText('b') });
  });

  it('a fork and an exported then imported copy hold them too; deleting leaves none', async () => {
    const dbName = freshDbName();
    const store = service(dbName);
    await store.createSession(key);
    const object = longObject();
    await store.appendEvent({ session, event: event('i1', { object }) });
    await store.appendEvent({ session, event: event('i2', { n: 1 }) });

    const fork = await store.forkSession({ ...key, atInvocationId: 'i2', newSessionId: 'fork' });
    expect(fork.state).toEqual({ object, n: 1 });
    // As a session file carries them: the events, through JSON.
    const events = JSON.parse(JSON.stringify((await store.getSession(key))!.events)) as Event[];
    const copy = await store.importSession({ appName, userId, sessionId: 'copy', events });
    expect(copy.state).toEqual({ object, n: 1 });
    forgetLongValues();
    const fresh = service(dbName);
    expect((await fresh.getSession({ appName, userId, sessionId: 'fork' }))!.state).toEqual({
      object,
      n: 1,
    });
    expect((await fresh.getSession({ appName, userId, sessionId: 'copy' }))!.state).toEqual({
      object,
      n: 1,
    });

    await store.deleteSession(key);
    expect((await raw(store)).values).toEqual([]);
    expect((await fresh.getSession({ appName, userId, sessionId: 'fork' }))!.state).toEqual({
      object,
      n: 1,
    });
  });

  it('a session stored before they went out of line writes its inline value once, at its next turn', async () => {
    const dbName = freshDbName();
    const store = service(dbName);
    await store.createSession(key);
    const text = longText('old');
    await store.appendEvent({ session, event: event('i1', { text }) });
    // As schema 7 left it: the value inline in the record, no long values stored.
    const db = await store.openDatabase();
    const { record } = await raw(store);
    const { long: _long, ...inline } = record!;
    await db.put(Stores.sessions, { ...inline, state: { ...record!.state, text } });
    await db.clear(Stores.longValues);
    forgetLongValues();

    const fresh = service(dbName);
    await fresh.appendEvent({ session, event: event('i2', { n: 1 }) });
    const after = await raw(fresh);
    expect(after.values.map((row) => row.value)).toEqual([text]);
    const [row] = after.values;
    expect(after.record!.long).toEqual({ text: row!.id });
    const checkpoint = after.checkpoints.find((c) => c.invocationId === 'i2');
    expect(checkpoint!.long).toEqual({ text: row!.id });
    expect(await stateAfterReload(dbName)).toEqual({ text, n: 1 });
  });
});
