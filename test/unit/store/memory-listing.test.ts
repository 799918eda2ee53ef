// Listing and deleting memory, and adding a turn's events, on both memory services (in memory,
// and IndexedDB over fake-indexeddb): what the app's Memory view and its agents that remember
// rely on. The same cases run against each, so the two cannot drift apart.

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IndexedDbMemoryService,
  InMemoryMemoryService,
  createEvent,
  type BaseMemoryService,
  type Content,
  type Event,
} from '../../../src/index.ts';
import { freshDbName } from '../../support/helpers.ts';

const toClose: IndexedDbMemoryService[] = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((service) => service.close()));
});

const KINDS: [string, () => BaseMemoryService][] = [
  ['in memory', () => new InMemoryMemoryService()],
  [
    'IndexedDB',
    () => {
      const service = new IndexedDbMemoryService({ dbName: freshDbName() });
      toClose.push(service);
      return service;
    },
  ],
];

let clock = Date.UTC(2026, 3, 1, 9, 0);
function said(author: string, text: string | undefined, invocationId = 'i-1'): Event {
  clock += 60_000;
  const content: Content | undefined =
    text === undefined
      ? undefined
      : { role: author === 'user' ? 'user' : 'model', parts: [{ text }] };
  return createEvent({ invocationId, author, timestamp: clock, ...(content ? { content } : {}) });
}

const key = (sessionId: string) => ({ appName: 'app', userId: 'u', sessionId });
const user = { appName: 'app', userId: 'u' };
const textsOf = async (service: BaseMemoryService, sessionId: string) =>
  (await service.listMemories(key(sessionId))).memories.map((m) => m.content.parts[0]!.text);
const counts = async (service: BaseMemoryService) =>
  (await service.listMemorySessions(user)).sessions.sort((a, b) =>
    a.sessionId.localeCompare(b.sessionId),
  );

describe.each(KINDS)('memory listing and deletes (%s)', (_, make) => {
  it('lists a session’s memories oldest first, and the sessions it holds with their counts', async () => {
    const service = make();
    const events = [said('user', 'My locker code is 4721.'), said('helper', 'Noted.')];
    await service.addSessionToMemory({ ...key('s1'), id: 's1', events });
    await service.addSessionToMemory({
      ...key('s2'),
      id: 's2',
      events: [said('user', 'I like owls.')],
    });
    expect(await textsOf(service, 's1')).toEqual(['My locker code is 4721.', 'Noted.']);
    const [first] = (await service.listMemories(key('s1'))).memories;
    expect(first).toMatchObject({
      author: 'user',
      sessionId: 's1',
      eventId: events[0]!.id,
      invocationId: 'i-1',
      timestamp: new Date(events[0]!.timestamp).toISOString(),
    });
    expect(await counts(service)).toEqual([
      { sessionId: 's1', count: 2 },
      { sessionId: 's2', count: 1 },
    ]);
    // Another user's, another app's: nothing.
    expect((await service.listMemorySessions({ appName: 'app', userId: 'v' })).sessions).toEqual(
      [],
    );
    expect((await service.listMemories({ ...key('s1'), appName: 'other' })).memories).toEqual([]);
  });

  it('adds a turn’s events to what it holds, replacing nothing, so a deleted memory stays deleted', async () => {
    const service = make();
    const turn1 = [said('user', 'My locker code is 4721.'), said('helper', 'Noted.')];
    await service.addEventsToMemory({ ...key('s1'), events: turn1 });
    await service.removeEventsFromMemory({ ...key('s1'), eventIds: [turn1[1]!.id] });
    const turn2 = [said('user', 'And my bike is red.', 'i-2'), said('helper', undefined, 'i-2')];
    // The first turn's user event again (held already) changes nothing; one without content is
    // not kept.
    await service.addEventsToMemory({ ...key('s1'), events: [turn1[0]!, ...turn2] });
    expect(await textsOf(service, 's1')).toEqual([
      'My locker code is 4721.',
      'And my bike is red.',
    ]);
    const found = await service.searchMemory({ ...user, query: 'bike' });
    expect(found.memories.map((m) => m.content.parts[0]!.text)).toEqual(['And my bike is red.']);
  });

  it('forgets all a session added, and only that session’s', async () => {
    const service = make();
    await service.addSessionToMemory({
      ...key('s1'),
      id: 's1',
      events: [said('user', 'Owls at night.')],
    });
    await service.addSessionToMemory({
      ...key('s2'),
      id: 's2',
      events: [said('user', 'Owls by day.')],
    });
    await service.removeSessionFromMemory(key('s1'));
    expect(await counts(service)).toEqual([{ sessionId: 's2', count: 1 }]);
    const found = await service.searchMemory({ ...user, query: 'owls' });
    expect(found.memories.map((m) => m.sessionId)).toEqual(['s2']);
    // A session it holds nothing of: nothing happens, nothing breaks.
    await service.removeSessionFromMemory(key('nope'));
    await service.addEventsToMemory({ ...key('s3'), events: [] });
    expect(await counts(service)).toEqual([{ sessionId: 's2', count: 1 }]);
  });

  it('keeps hostile text as text: markup, a huge message, a key that looks like a range', async () => {
    const service = make();
    const hostile = `<img src=x onerror=alert(1)> ${'x'.repeat(200_000)}`;
    await service.addEventsToMemory({ ...key('["s",[]]'), events: [said('user', hostile)] });
    expect(await textsOf(service, '["s",[]]')).toEqual([hostile]);
    expect(await counts(service)).toEqual([{ sessionId: '["s",[]]', count: 1 }]);
  });
});
