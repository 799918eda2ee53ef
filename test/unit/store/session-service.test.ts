// One contract for both session services: in memory and IndexedDB.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createEvent,
  isTrellisError,
  type BaseSessionService,
  type Event,
  type Session,
} from '../../../src/index.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'ada';

describe.each(serviceKinds)('session service contract ($name)', (kind) => {
  let services: Services;
  let service: BaseSessionService;

  beforeEach(() => {
    services = kind.open();
    service = services.sessionService;
  });
  afterEach(() => services.close());

  const key = (session: Session) => ({ appName, userId, sessionId: session.id });
  const event = (
    invocationId: string,
    stateDelta: Record<string, unknown> = {},
    text?: string,
  ): Event =>
    createEvent({
      invocationId,
      author: 'agent',
      actions: { stateDelta },
      ...(text ? { content: { role: 'model' as const, parts: [{ text }] } } : {}),
    });

  describe('createSession', () => {
    it('creates an empty session with a generated id', async () => {
      const session = await service.createSession({ appName, userId });
      expect(session).toMatchObject({ appName, userId, state: {}, events: [] });
      expect(session.id).toMatch(/\S/);
      expect(session.lastUpdateTime).toBeGreaterThan(0);
      expect(await service.getSession(key(session))).toEqual(session);
    });

    it('uses the given id, and refuses a second session with it', async () => {
      await service.createSession({ appName, userId, sessionId: 's1' });
      const error = await rejectionOf(service.createSession({ appName, userId, sessionId: 's1' }));
      expect(error.name).toBe('SessionExistsError');
      // The same id is fine for another user or app.
      await service.createSession({ appName, userId: 'bob', sessionId: 's1' });
      await service.createSession({ appName: 'other', userId, sessionId: 's1' });
    });

    it('records the initial state as a first, synthetic user event', async () => {
      const session = await service.createSession({
        appName,
        userId,
        state: { topic: 'tea', 'app:theme': 'dark', 'user:lang': 'en', 'temp:scratch': 1 },
      });
      expect(session.state).toEqual({ topic: 'tea', 'app:theme': 'dark', 'user:lang': 'en' });
      expect(session.events).toHaveLength(1);
      const [initial] = session.events;
      expect(initial).toMatchObject({
        author: 'user',
        actions: { stateDelta: { topic: 'tea', 'app:theme': 'dark', 'user:lang': 'en' } },
      });
      expect(initial!.invocationId).toMatch(/^e-/);
      expect(initial!.content).toBeUndefined();
    });
  });

  describe('appendEvent', () => {
    it('appends in order and applies each state delta', async () => {
      const session = await service.createSession({ appName, userId });
      await service.appendEvent({ session, event: event('e-1', { a: 1, b: 'x' }) });
      await service.appendEvent({ session, event: event('e-1', { a: 2 }, 'hello') });
      const read = await service.getSession(key(session));
      expect(read!.state).toEqual({ a: 2, b: 'x' });
      expect(read!.events.map((e) => e.actions.stateDelta)).toEqual([{ a: 1, b: 'x' }, { a: 2 }]);
      expect(read!.events[1]!.content).toEqual({ role: 'model', parts: [{ text: 'hello' }] });
    });

    it('removes a key whose delta value is null', async () => {
      const session = await service.createSession({ appName, userId, state: { a: 1, b: 2 } });
      await service.appendEvent({ session, event: event('e-1', { a: null }) });
      expect((await service.getSession(key(session)))!.state).toEqual({ b: 2 });
    });

    it('shares app: keys across the app and user: keys across the user', async () => {
      const s1 = await service.createSession({ appName, userId });
      const s2 = await service.createSession({ appName, userId });
      const bobs = await service.createSession({ appName, userId: 'bob' });
      const otherApp = await service.createSession({ appName: 'other', userId });
      await service.appendEvent({
        session: s1,
        event: event('e-1', { 'app:motd': 'hi', 'user:name': 'Ada', mine: true }),
      });
      expect((await service.getSession(key(s2)))!.state).toEqual({
        'app:motd': 'hi',
        'user:name': 'Ada',
      });
      expect(
        (await service.getSession({ appName, userId: 'bob', sessionId: bobs.id }))!.state,
      ).toEqual({
        'app:motd': 'hi',
      });
      expect(
        (await service.getSession({ appName: 'other', userId, sessionId: otherApp.id }))!.state,
      ).toEqual({});
    });

    it('never stores temp: keys', async () => {
      const session = await service.createSession({ appName, userId });
      const stored = await service.appendEvent({
        session,
        event: event('e-1', { 'temp:x': 1, kept: 2 }),
      });
      expect(stored.actions.stateDelta).toEqual({ kept: 2 });
      const read = await service.getSession(key(session));
      expect(read!.state).toEqual({ kept: 2 });
      expect(read!.events[0]!.actions.stateDelta).toEqual({ kept: 2 });
    });

    it('returns a partial event as it is, without storing it', async () => {
      const session = await service.createSession({ appName, userId });
      const partial = { ...event('e-1', { a: 1 }, 'typing…'), partial: true };
      expect(await service.appendEvent({ session, event: partial })).toBe(partial);
      const read = await service.getSession(key(session));
      expect(read!.events).toEqual([]);
      expect(read!.state).toEqual({});
    });

    it('keeps the stored event apart from the caller’s object, and read-only', async () => {
      const session = await service.createSession({ appName, userId });
      const original = event('e-1', { list: [1] }, 'hi');
      const stored = await service.appendEvent({ session, event: original });
      (original.actions.stateDelta.list as number[]).push(2);
      original.content!.parts[0]!.text = 'changed';
      const read = await service.getSession(key(session));
      expect(read!.events[0]!.content!.parts[0]!.text).toBe('hi');
      expect(read!.state).toEqual({ list: [1] });
      expect(() => {
        (stored.actions.stateDelta as Record<string, unknown>).x = 1;
      }).toThrow(TypeError);
    });

    it('rejects an unknown session and writes nothing', async () => {
      const error = await rejectionOf(
        service.appendEvent({
          session: { appName, userId, id: 'nope' },
          event: event('e-1', { a: 1 }),
        }),
      );
      expect(error.name).toBe('SessionNotFoundError');
      expect(isTrellisError(error, 'SessionNotFoundError')).toBe(true);
      expect(await service.getSession({ appName, userId, sessionId: 'nope' })).toBeUndefined();
    });

    it('refuses an event id already in the session, and the whole append is undone', async () => {
      const session = await service.createSession({ appName, userId });
      const first = event('e-1', { a: 1 });
      await service.appendEvent({ session, event: first });
      const again = {
        ...first,
        actions: { stateDelta: { a: 2, 'app:x': 1, 'user:y': 1 }, artifactDelta: {} },
      };
      const error = await rejectionOf(service.appendEvent({ session, event: again }));
      expect(error.name).toBe('DuplicateEventError');
      const read = await service.getSession(key(session));
      expect(read!.events).toHaveLength(1);
      expect(read!.state).toEqual({ a: 1 });
    });

    it('moves lastUpdateTime to the event time', async () => {
      const session = await service.createSession({ appName, userId });
      const later = { ...event('e-1'), timestamp: session.lastUpdateTime + 5_000 };
      await service.appendEvent({ session, event: later });
      expect((await service.getSession(key(session)))!.lastUpdateTime).toBe(later.timestamp);
    });
  });

  describe('getSession', () => {
    it('returns undefined for an unknown session', async () => {
      expect(await service.getSession({ appName, userId, sessionId: 'missing' })).toBeUndefined();
    });

    it('returns only the recent events when asked, with the full state', async () => {
      const session = await service.createSession({ appName, userId });
      for (let i = 0; i < 10; i++)
        await service.appendEvent({ session, event: event(`e-${i}`, { i }) });
      const recent = await service.getSession({ ...key(session), config: { numRecentEvents: 3 } });
      expect(recent!.events.map((e) => e.actions.stateDelta.i)).toEqual([7, 8, 9]);
      expect(recent!.state).toEqual({ i: 9 });
      const shorthand = await service.getSession({ ...key(session), numRecentEvents: 2 });
      expect(shorthand!.events.map((e) => e.actions.stateDelta.i)).toEqual([8, 9]);
      const none = await service.getSession({ ...key(session), config: { numRecentEvents: 0 } });
      expect(none!.events).toEqual([]);
      const more = await service.getSession({ ...key(session), config: { numRecentEvents: 50 } });
      expect(more!.events).toHaveLength(10);
    });

    it('is a snapshot: later writes, a rewind and a delete leave its events as they were', async () => {
      const created = await service.createSession({ appName, userId, state: { n: 0 } });
      await service.appendEvent({ session: created, event: event('e-1', { n: 1 }) });
      const read = (await service.getSession(key(created)))!;
      const readEarly = (await service.getSession(key(created)))!;
      const early = readEarly.events; // read before the writes below; `read`'s after them
      await service.appendEvent({ session: created, event: event('e-2', { n: 2 }) });
      await service.rewindSession({ ...key(created), rewindBeforeInvocationId: 'e-2' });
      await service.appendEvent({ session: created, event: event('e-3', { n: 3 }) });
      const after = (await service.getSession(key(created)))!;
      // Its events are an array of the caller's own: changing it changes nothing stored.
      (after.events as Event[]).length = 0;
      const ids = (events: readonly Event[]) => events.map((e) => e.invocationId).slice(1);
      expect(ids((await service.getSession(key(created)))!.events)).toEqual([
        'e-1',
        'e-2',
        expect.any(String),
        'e-3',
      ]);
      await service.deleteSession(key(created));
      expect(created.events).toHaveLength(1);
      expect(ids(read.events)).toEqual(['e-1']);
      expect(ids(early)).toEqual(['e-1']);
      expect(read.state).toEqual({ n: 1 });
      // Cloned and serialised with the session, like any property.
      expect(structuredClone(read).events).toEqual(read.events);
      expect(JSON.parse(JSON.stringify(read)).events).toHaveLength(2);
    });

    it('returns the events at or after a timestamp when asked', async () => {
      const session = await service.createSession({ appName, userId });
      const base = Date.now();
      for (let i = 0; i < 5; i++) {
        await service.appendEvent({
          session,
          event: { ...event(`e-${i}`, { i }), timestamp: base + i * 10 },
        });
      }
      const after = await service.getSession({
        ...key(session),
        config: { afterTimestamp: base + 25 },
      });
      expect(after!.events.map((e) => e.actions.stateDelta.i)).toEqual([3, 4]);
    });
  });

  describe('listSessions and deleteSession', () => {
    it('lists a user’s sessions, latest first, with state and without events', async () => {
      const older = await service.createSession({ appName, userId, state: { n: 1 } });
      const newer = await service.createSession({ appName, userId });
      await service.createSession({ appName, userId: 'bob' });
      await service.appendEvent({
        session: newer,
        event: { ...event('e-1', { 'user:z': 1 }), timestamp: Date.now() + 1000 },
      });
      const { sessions } = await service.listSessions({ appName, userId });
      expect(sessions.map((s) => s.id)).toEqual([newer.id, older.id]);
      expect(sessions.every((s) => s.events.length === 0)).toBe(true);
      expect(sessions[1]!.state).toEqual({ n: 1, 'user:z': 1 });
    });

    it('deletes a session with its log; unknown ids are an error', async () => {
      const doomed = await service.createSession({
        appName,
        userId,
        sessionId: 'doomed',
        state: { a: 1 },
      });
      const kept = await service.createSession({
        appName,
        userId,
        sessionId: 'kept',
        state: { b: 1 },
      });
      await service.deleteSession(key(doomed));
      expect(await service.getSession(key(doomed))).toBeUndefined();
      expect((await service.getSession(key(kept)))!.events).toHaveLength(1);
      expect((await rejectionOf(service.deleteSession(key(doomed)))).name).toBe(
        'SessionNotFoundError',
      );
      const reborn = await service.createSession({ appName, userId, sessionId: 'doomed' });
      expect((await service.getSession(key(reborn)))!.events).toEqual([]);
      expect(
        await service.getInvocationCheckpoint({
          ...key(reborn),
          invocationId: doomed.events[0]!.invocationId,
        }),
      ).toBeUndefined();
    });
  });

  describe('invocation checkpoints', () => {
    it('keeps, per invocation, the session state and artifacts before its first event', async () => {
      const session = await service.createSession({ appName, userId, state: { k: 'initial' } });
      await service.appendEvent({ session, event: event('e-1', { k: 'one', 'app:a': 1 }) });
      await service.appendEvent({
        session,
        event: createEvent({
          invocationId: 'e-1',
          author: 'agent',
          actions: { stateDelta: { k2: 'x' }, artifactDelta: { 'f.txt': 0, 'user:g.txt': 0 } },
        }),
      });
      await service.appendEvent({ session, event: event('e-2', { k: 'two', k2: null }) });

      const first = await service.getInvocationCheckpoint({ ...key(session), invocationId: 'e-1' });
      expect(first).toEqual({
        invocationId: 'e-1',
        firstSeq: 1,
        state: { k: 'initial' },
        artifacts: {},
      });
      const second = await service.getInvocationCheckpoint({
        ...key(session),
        invocationId: 'e-2',
      });
      expect(second).toEqual({
        invocationId: 'e-2',
        firstSeq: 3,
        state: { k: 'one', k2: 'x' },
        artifacts: { 'f.txt': 0 },
      });
      const initial = session.events[0]!.invocationId;
      expect(
        await service.getInvocationCheckpoint({ ...key(session), invocationId: initial }),
      ).toMatchObject({
        firstSeq: 0,
        state: {},
      });
      expect(
        await service.getInvocationCheckpoint({ ...key(session), invocationId: 'e-404' }),
      ).toBeUndefined();
    });

    it('keeps the first checkpoint when an older invocation continues later', async () => {
      const session = await service.createSession({ appName, userId });
      await service.appendEvent({ session, event: event('e-1', { k: 1 }) });
      await service.appendEvent({ session, event: event('e-2', { k: 2 }) });
      await service.appendEvent({ session, event: event('e-1', { k: 3 }) });
      expect(
        await service.getInvocationCheckpoint({ ...key(session), invocationId: 'e-1' }),
      ).toMatchObject({
        firstSeq: 0,
        state: {},
      });
    });
  });

  it.runIf(kind.persistent)('keeps everything across a restart', async () => {
    const session = await service.createSession({
      appName,
      userId,
      state: { a: 1, 'app:b': 2, 'user:c': 3 },
    });
    await service.appendEvent({ session, event: event('e-1', { a: 4 }, 'hi') });
    const before = await service.getSession(key(session));
    services = await services.restart();
    const after = await services.sessionService.getSession(key(session));
    expect(after).toEqual(before);
    expect(
      await services.sessionService.getInvocationCheckpoint({
        ...key(session),
        invocationId: 'e-1',
      }),
    ).toMatchObject({
      state: { a: 1 },
    });
    const { sessions } = await services.sessionService.listSessions({ appName, userId });
    expect(sessions.map((s) => s.id)).toEqual([session.id]);
  });
});
