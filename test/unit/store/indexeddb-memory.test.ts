// IndexedDbMemoryService over fake-indexeddb: ranked search of a user's own memories, what it
// stores, a session added again, events removed, another tab's writes, hostile input, and the
// upgrade from schema 8 that makes its stores.

import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it } from 'vitest';
import {
  IndexedDbMemoryService,
  IndexedDbSessionService,
  createEvent,
  type Content,
  type Event,
  type SessionToRemember,
} from '../../../src/index.ts';
import { DB_VERSION } from '../../../src/store/database.ts';
import { MAX_QUERY_TERMS } from '../../../src/store/memory-index.ts';
import { freshDbName } from '../../support/helpers.ts';
import {
  SCHEMA_V8,
  SCHEMA_V11,
  createDatabase,
  readSchema,
} from '../../support/schema-fixtures.ts';

const toClose: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(toClose.splice(0).map((service) => service.close()));
});

function memoryService(dbName = freshDbName(), maxResults?: number) {
  const service = new IndexedDbMemoryService({
    dbName,
    ...(maxResults === undefined ? {} : { maxResults }),
  });
  toClose.push(service);
  return service;
}

let clock = Date.UTC(2026, 0, 15, 10, 30);

function said(author: string, content: Content | undefined, invocationId = 'e-1'): Event {
  clock += 60_000;
  return createEvent({ invocationId, author, timestamp: clock, ...(content ? { content } : {}) });
}

const user = (t: string): Content => ({ role: 'user', parts: [{ text: t }] });
const model = (t: string): Content => ({ role: 'model', parts: [{ text: t }] });

const session = (id: string, events: Event[], userId = 'u'): SessionToRemember => ({
  id,
  appName: 'app',
  userId,
  events,
});

const texts = (memories: { content: Content }[]) => memories.map((m) => m.content.parts[0]!.text);

const search = (service: IndexedDbMemoryService, query: string, userId = 'u') =>
  service.searchMemory({ appName: 'app', userId, query }).then((r) => r.memories);

describe('IndexedDbMemoryService', () => {
  it('finds the memories that share the query’s words, the rarer words first', async () => {
    const service = memoryService();
    await service.addSessionToMemory(
      session('s1', [
        said('user', user('The weather in Lisbon is sunny today.')),
        said('agent', model('Sunny weather, then.')),
        said('user', user('What about the weather in Porto?')),
      ]),
    );
    await service.addSessionToMemory(
      session('s2', [said('user', user('Lisbon trams are yellow.'))]),
    );
    expect(texts(await search(service, 'lisbon weather'))).toEqual([
      'The weather in Lisbon is sunny today.',
      'Lisbon trams are yellow.',
      'Sunny weather, then.',
      'What about the weather in Porto?',
    ]);
    // Unlike ADK's matching: letters of any script make words, punctuation is no part of one,
    // and a word of four letters or more finds the longer ones it begins.
    await service.addSessionToMemory(
      session('s3', [said('user', user('Un café crème, raining.'))]),
    );
    expect(texts(await search(service, 'CAFÉ'))).toEqual(['Un café crème, raining.']);
    expect(texts(await search(service, 'rain?'))).toEqual(['Un café crème, raining.']);
    expect(await search(service, 'rai')).toEqual([]);
  });

  it('returns ADK’s entry, with where it came from', async () => {
    const service = memoryService();
    const event = said('user', user('Remember the milk.'), 'inv-7');
    await service.addSessionToMemory(session('s1', [event]));
    expect(await search(service, 'milk')).toEqual([
      {
        content: { role: 'user', parts: [{ text: 'Remember the milk.' }] },
        author: 'user',
        timestamp: new Date(event.timestamp).toISOString(),
        sessionId: 's1',
        eventId: event.id,
        invocationId: 'inv-7',
      },
    ]);
  });

  it('keeps the text of events only: no calls, no files, nothing without text', async () => {
    const dbName = freshDbName();
    const service = memoryService(dbName);
    const mixed = said('agent', {
      role: 'model',
      parts: [
        { text: 'Here is the chart' },
        { inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } },
        { functionCall: { id: 'c', name: 'plot', args: {} } },
        { text: 'chart notes', thought: true },
      ],
    });
    const call = said('agent', {
      role: 'model',
      parts: [{ functionCall: { id: 'c', name: 'plot', args: {} } }],
    });
    await service.addSessionToMemory(session('s1', [mixed, call, said('agent', undefined)]));
    expect(
      await service.listMemoryEventIds({ appName: 'app', userId: 'u', sessionId: 's1' }),
    ).toEqual([mixed.id]);
    const [memory] = await search(service, 'chart');
    expect(memory!.content).toEqual({
      role: 'model',
      parts: [{ text: 'Here is the chart' }, { text: 'chart notes', thought: true }],
    });
  });

  it('searches only the user’s own memories, and an unknown user has none', async () => {
    const service = memoryService();
    await service.addSessionToMemory(session('mine', [said('user', user('secret plans'))]));
    await service.addSessionToMemory(
      session('theirs', [said('user', user('their secret plans'))], 'other'),
    );
    await service.addSessionToMemory({ ...session('app2', []), appName: 'other-app' });
    expect(texts(await search(service, 'secret'))).toEqual(['secret plans']);
    expect(texts(await search(service, 'secret', 'other'))).toEqual(['their secret plans']);
    expect(await search(service, 'secret', 'nobody')).toEqual([]);
    expect(await service.searchMemory({ appName: 'nope', userId: 'u', query: 'secret' })).toEqual({
      memories: [],
    });
  });

  it('replaces what a session added when it is added again, writing only what changed', async () => {
    const dbName = freshDbName();
    const service = memoryService(dbName);
    const first = said('user', user('Tea or coffee?'));
    const second = said('agent', model('Coffee, black.'));
    await service.addSessionToMemory(session('s1', [first, second]));
    expect(texts(await search(service, 'coffee'))).toHaveLength(2);
    const third = said('user', user('Green tea after all.'));
    await service.addSessionToMemory(session('s1', [first, third]));
    expect(texts(await search(service, 'coffee tea'))).toEqual([
      'Tea or coffee?',
      'Green tea after all.',
    ]);
    await service.addSessionToMemory(session('s1', []));
    expect(await search(service, 'coffee tea')).toEqual([]);
    const db = await openDB(dbName);
    expect(await db.count('memories')).toBe(0);
    db.close();
  });

  it('forgets the events it is told to, and ignores ids it never held', async () => {
    const service = memoryService();
    const events = [said('user', user('one apple')), said('agent', model('two apples'))];
    await service.addSessionToMemory(session('s1', events));
    expect(texts(await search(service, 'apple apples'))).toHaveLength(2);
    const key = { appName: 'app', userId: 'u', sessionId: 's1' };
    await service.removeEventsFromMemory({ ...key, eventIds: [events[1]!.id, 'unknown'] });
    expect(texts(await search(service, 'apple apples'))).toEqual(['one apple']);
    expect(await service.listMemoryEventIds(key)).toEqual([events[0]!.id]);
    await service.removeEventsFromMemory({ ...key, sessionId: 'no-such-session', eventIds: [] });
  });

  it('sees what another tab (another service on the database) wrote', async () => {
    const dbName = freshDbName();
    const tabA = memoryService(dbName);
    const tabB = memoryService(dbName);
    await tabA.addSessionToMemory(session('s1', [said('user', user('about owls'))]));
    expect(texts(await search(tabB, 'owls'))).toEqual(['about owls']);
    const later = said('user', user('more owls'));
    await tabA.addSessionToMemory(session('s2', [later]));
    expect(texts(await search(tabB, 'owls'))).toHaveLength(2);
    await tabB.removeEventsFromMemory({
      appName: 'app',
      userId: 'u',
      sessionId: 's2',
      eventIds: [later.id],
    });
    expect(texts(await search(tabA, 'owls'))).toEqual(['about owls']);
    // A third, opened later, builds its index from what is stored.
    expect(texts(await search(memoryService(dbName), 'owls'))).toEqual(['about owls']);
  });

  it('keeps searches right while writes and searches overlap', async () => {
    const service = memoryService();
    const writes = Array.from({ length: 8 }, (_, i) =>
      service.addSessionToMemory(session(`s${i}`, [said('user', user(`parrot number ${i}`))])),
    );
    const searches = writes.map(() => search(service, 'parrot'));
    await Promise.all([...writes, ...searches]);
    expect(texts(await search(service, 'parrot'))).toHaveLength(8);
  });

  it('returns the best maxResults', async () => {
    const service = memoryService(freshDbName(), 3);
    await service.addSessionToMemory(
      session(
        's1',
        Array.from({ length: 10 }, (_, i) => said('user', user(`kiwi ${'kiwi '.repeat(i)}`))),
      ),
    );
    expect(await search(service, 'kiwi')).toHaveLength(3);
  });

  it('takes a huge or empty query, or a session of no events, without failing', async () => {
    const service = memoryService();
    expect(await search(service, 'anything')).toEqual([]);
    await service.addSessionToMemory(session('empty', []));
    expect(await search(service, 'anything')).toEqual([]);
    await service.addSessionToMemory(session('s1', [said('user', user('needle in a haystack'))]));
    const noise = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    // Only the first words of a query are looked up.
    const early = Array.from({ length: MAX_QUERY_TERMS - 1 }, (_, i) => `x${i}`).join(' ');
    expect(texts(await search(service, `${early} needle ${noise}`))).toEqual([
      'needle in a haystack',
    ]);
    expect(await search(service, `${noise} needle`)).toEqual([]);
    for (const query of ['', '   ', '?!…', '\u0000'])
      expect(await search(service, query)).toEqual([]);
  });
  it('takes odd names and a huge memory', async () => {
    const service = memoryService();
    const huge = `${'lorem ipsum '.repeat(100_000)}needle`;
    for (const name of ['__proto__', 'constructor', '', 'a/b', '["x"]']) {
      await service.addSessionToMemory({
        ...session(name, [said('user', user(`${name} sees the owl`))], name),
        appName: name,
      });
      const found = await service.searchMemory({ appName: name, userId: name, query: 'owl' });
      expect(texts(found.memories)).toEqual([`${name} sees the owl`]);
    }
    await service.addSessionToMemory(session('big', [said('user', user(huge))]));
    expect(texts(await search(service, 'needle'))).toEqual([huge]);
  });
});

describe('the memory stores (schema 9)', () => {
  it('upgrades a version 8 database: sessions stay, and memory can be stored', async () => {
    const dbName = freshDbName();
    const v8 = await createDatabase(dbName, 8, SCHEMA_V8);
    const event = said('user', user('kept across the upgrade'));
    await v8.put('sessions', {
      appName: 'app',
      userId: 'u',
      id: 's',
      state: {},
      artifacts: {},
      createTime: 1,
      lastUpdateTime: event.timestamp,
      eventCount: 1,
      lastInvocationId: event.invocationId,
    });
    await v8.put('events', { appName: 'app', userId: 'u', sessionId: 's', seq: 0, event });
    v8.close();

    const sessions = new IndexedDbSessionService({ dbName });
    toClose.push(sessions);
    const stored = await sessions.getSession({ appName: 'app', userId: 'u', sessionId: 's' });
    expect(stored!.events).toEqual([event]);
    const service = memoryService(dbName);
    await service.addSessionToMemory(stored!);
    expect(texts(await search(service, 'upgrade'))).toEqual(['kept across the upgrade']);
    await Promise.all(toClose.splice(0).map((closing) => closing.close()));
    expect(await readSchema(dbName)).toEqual({ version: DB_VERSION, schema: SCHEMA_V11 });
  });
});
