// InMemoryMemoryService beside @google/adk 2.0's: the same sessions added to each, the same
// queries, the same memories back (Trellis's entries also say where they came from, which ADK's
// do not: that is compared on its own).

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import {
  InMemoryMemoryService,
  createEvent,
  type Content,
  type Event,
  type MemoryEntry,
  type SessionToRemember,
} from '../../../src/index.ts';

const APP = 'app';

let clock = Date.UTC(2026, 0, 15, 10, 30);

function said(author: string, content: Content | undefined, invocationId = 'e-1'): Event {
  clock += 60_000;
  return createEvent({ invocationId, author, timestamp: clock, ...(content ? { content } : {}) });
}

const text = (role: 'user' | 'model', ...texts: string[]): Content => ({
  role,
  parts: texts.map((t) => ({ text: t })),
});

function session(id: string, events: Event[], userId = 'u', appName = APP): SessionToRemember {
  return { id, appName, userId, events };
}

/** The sessions of every case: two users, two apps, every kind of event memory meets. */
function sessions(): SessionToRemember[] {
  return [
    session('trip', [
      said('user', text('user', 'I am planning a trip to Lisbon in May.')),
      said('travel_agent', text('model', 'Lisbon in May is lovely: warm, little rain.')),
      said('user', text('user', 'Book the flight, please!')),
      said('travel_agent', {
        role: 'model',
        parts: [{ functionCall: { id: 'c1', name: 'book_flight', args: { to: 'LIS' } } }],
      }),
      said('travel_agent', {
        role: 'user',
        parts: [{ functionResponse: { id: 'c1', name: 'book_flight', response: { ok: true } } }],
      }),
      said('travel_agent', text('model', 'Booked: flight TP1 on the 3rd.', '')),
      said('travel_agent', undefined),
      said('travel_agent', { role: 'model', parts: [] }),
    ]),
    session('pets', [
      said('user', text('user', 'My cat Miso likes tuna; my dog does not.')),
      said('helper', text('model', 'Noted: Miso (cat) likes tuna.')),
      said('user', text('user', 'Café crème and naïve résumé, 42 times.')),
      said('helper', { role: 'model', parts: [{ text: 'Thinking about cats', thought: true }] }),
    ]),
    session('other-user', [said('user', text('user', 'Lisbon is where I live.'))], 'someone-else'),
    session('other-app', [said('user', text('user', 'Lisbon trams'))], 'u', 'other'),
    session('__proto__', [said('user', text('user', 'A session named like a prototype: tuna.'))]),
    session('empty', []),
  ];
}

/** Each query with how many memories both find: ADK's matching, its odd corners included. */
const QUERIES: [query: string, found: number][] = [
  ['lisbon', 2],
  ['LISBON weather', 2],
  ['Lisbon?', 0], // the query's words keep their punctuation
  ['tuna', 3],
  ['cats', 1],
  ['cat', 2],
  ['caf', 1], // a memory's words are runs of A–Z: "Café" is "caf"
  ['café', 0],
  ['naïve', 0],
  ['42', 0], // and digits are no word
  ['flight booked', 2],
  ['book_flight', 0], // function calls and responses have no text
  ['ok', 0],
  ['', 0],
  ['   ', 0],
  [' \n\t trip ', 1],
  ['nothing matches this', 0],
  ['thinking', 1], // a thought is text too
  ['prototype', 1], // from the session named __proto__
  ['A', 2],
];

/** ADK's fields of an entry: what both libraries return. */
const adkShape = ({ content, author, timestamp }: MemoryEntry) => ({ content, author, timestamp });

async function both(added: readonly SessionToRemember[]) {
  const ours = new InMemoryMemoryService();
  const theirs = new adk.InMemoryMemoryService();
  for (const s of added) {
    await ours.addSessionToMemory(s);
    await theirs.addSessionToMemory(s as unknown as adk.Session);
  }
  return {
    ours,
    async search(query: string, userId = 'u', appName = APP) {
      const request = { appName, userId, query };
      const [mine, adks] = await Promise.all([
        ours.searchMemory(request),
        theirs.searchMemory(request),
      ]);
      return { ours: mine.memories, theirs: adks.memories };
    },
  };
}

describe('InMemoryMemoryService beside ADK', () => {
  it.each(QUERIES)('finds what ADK finds for %j (%i)', async (query, count) => {
    const { search } = await both(sessions());
    const found = await search(query);
    expect(found.ours.map(adkShape)).toEqual(found.theirs);
    expect(found.ours).toHaveLength(count);
  });

  it('finds the memories of the user and app asked for only', async () => {
    const { search } = await both(sessions());
    for (const [userId, appName] of [
      ['someone-else', APP],
      ['u', 'other'],
      ['nobody', APP],
      ['u', 'no-app'],
    ] as const) {
      const found = await search('lisbon trams', userId, appName);
      expect(found.ours.map(adkShape)).toEqual(found.theirs);
    }
    expect((await search('lisbon', 'nobody')).ours).toEqual([]);
  });

  it('replaces what a session added when it is added again, as ADK does', async () => {
    const [trip] = sessions();
    const { ours } = await both([trip!]);
    const later = session('trip', [said('user', text('user', 'Forget Lisbon: Porto instead.'))]);
    await ours.addSessionToMemory(later);
    const theirs = new adk.InMemoryMemoryService();
    await theirs.addSessionToMemory(trip as unknown as adk.Session);
    await theirs.addSessionToMemory(later as unknown as adk.Session);
    const adks = await theirs.searchMemory({ appName: APP, userId: 'u', query: 'lisbon' });
    const mine = await ours.searchMemory({ appName: APP, userId: 'u', query: 'lisbon' });
    expect(mine.memories.map(adkShape)).toEqual(adks.memories);
    expect(mine.memories.map((m) => m.content.parts[0]!.text)).toEqual([
      'Forget Lisbon: Porto instead.',
    ]);
  });

  it('says where each memory came from: its session, event and invocation', async () => {
    const trip = sessions()[0]!;
    const { ours } = await both([trip]);
    const { memories } = await ours.searchMemory({ appName: APP, userId: 'u', query: 'lisbon' });
    const [first, second] = trip.events;
    expect(memories).toEqual([
      expect.objectContaining({ sessionId: 'trip', eventId: first!.id, invocationId: 'e-1' }),
      expect.objectContaining({ sessionId: 'trip', eventId: second!.id, invocationId: 'e-1' }),
    ]);
    expect(await ours.listMemoryEventIds({ appName: APP, userId: 'u', sessionId: 'trip' })).toEqual(
      trip.events.slice(0, 6).map((event) => event.id),
    );
  });

  it('differs where ADK keeps sessions as object keys, and joins app and user as `app/user`', async () => {
    const tuna = (id: string, userId = 'u', appName = APP) =>
      session(id, [said('user', text('user', `tuna in ${id}`))], userId, appName);
    const { search } = await both([tuna('b'), tuna('2'), tuna('1'), tuna('x', 'c', 'a/b')]);
    const found = await search('tuna');
    const sessionsOf = (memories: { content: Content }[]) =>
      memories.map((m) => m.content.parts[0]!.text);
    // Ours in the order the sessions were added; ADK's puts ids like array indexes first.
    expect(sessionsOf(found.ours)).toEqual(['tuna in b', 'tuna in 2', 'tuna in 1']);
    expect(sessionsOf(found.theirs as never)).toEqual(['tuna in 1', 'tuna in 2', 'tuna in b']);
    // App `a/b` with user `c` is not app `a` with user `b/c` (for ADK both are `a/b/c`).
    const other = await search('tuna', 'b/c', 'a');
    expect(other.ours).toEqual([]);
    expect(sessionsOf(other.theirs as never)).toEqual(['tuna in x']);
  });

  it('answers a huge query as ADK does', async () => {
    const { search } = await both(sessions());
    const words = Array.from({ length: 200_000 }, (_, i) => `w${i.toString(36)}x`);
    const found = await search(`${words.join(' ')} tuna`);
    expect(found.ours.map(adkShape)).toEqual(found.theirs);
    expect(found.ours).toHaveLength(3);
  });
});
