// A page with nothing but search across sessions (workers/search/) on the browser's own
// IndexedDB, for test/bench/search.bench.ts: 1,000 sessions of 100 turns written straight into
// the search store (their docs, as the room would have read them), two real sessions to append
// to, and the room's first load, searches and indexing timed. Rooms are named by tab, so two of
// them are two tabs of one database.

import { createEvent } from '../../../src/core/event.ts';
import { IndexedDbSessionService } from '../../../src/index.ts';
import { IndexedDbArtifactService } from '../../../src/store/indexeddb-artifact-service.ts';
import { IndexedDbAppStore } from '../../../src/store/app-store.ts';
import {
  IndexedDbSearchStore,
  revOf,
  type SearchDocInput,
} from '../../../src/store/search-store.ts';
import { AppSearch } from '../../../workers/search/search.ts';
import { BUCKETS } from '../../../workers/search/search-index.ts';
import { APP_NAME, USER_ID } from '../../../workers/sessions/sessions.ts';

declare global {
  interface Window {
    searchHarness: typeof harness;
  }
}

const DB = 'search-bench';
const user = { appName: APP_NAME, userId: USER_ID };
const sessions = new IndexedDbSessionService({ dbName: DB });
const store = new IndexedDbAppStore({ dbName: DB });
const docs = new IndexedDbSearchStore(APP_NAME, USER_ID, { dbName: DB });
/** The seeded sessions as the session list would give them (they have no log: docs only). */
const seeded: { id: string; lastUpdateTime: number; title: string }[] = [];

/** The session service, its list holding the seeded sessions too, as up to date as their docs. */
const listed = new Proxy(sessions, {
  get(target, name, receiver) {
    if (name !== 'listSessions') return Reflect.get(target, name, receiver);
    return async (request: typeof user) => {
      const real = await target.listSessions(request);
      return { sessions: [...real.sessions, ...seeded] };
    };
  },
});
const titled = new Proxy(store, {
  get(target, name, receiver) {
    if (name !== 'listSessionMeta') return Reflect.get(target, name, receiver);
    return async (appName: string, userId: string) => [
      ...(await target.listSessionMeta(appName, userId)),
      ...seeded.map((s) => ({
        ...user,
        sessionId: s.id,
        title: s.title,
        agentId: '',
        createdAt: 0,
      })),
    ];
  },
});

const tabs = new Map<string, AppSearch>();
function tab(name: string): AppSearch {
  let found = tabs.get(name);
  if (!found) {
    found = new AppSearch({
      sessions: listed,
      artifacts: new IndexedDbArtifactService({ dbName: DB }),
      store: titled,
      docs,
      saveAfterMs: 3_600_000, // saved when the bench says
    });
    tabs.set(name, found);
  }
  return found;
}

// Text like a chat's: words of a 4,000-word vocabulary, common ones far more often (Zipf).
let seed = 7;
const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
const SYLLABLES = ['ka', 'lo', 'mi', 'ner', 'to', 'sa', 'vi', 'ra', 'pe', 'du', 'gan', 'bel'];
const VOCABULARY = Array.from({ length: 4000 }, (_, i) => {
  let word = '';
  for (let n = i + 1; n > 0; n = Math.floor(n / SYLLABLES.length))
    word += SYLLABLES[n % SYLLABLES.length];
  return word;
});
const word = () => VOCABULARY[Math.floor(VOCABULARY.length * random() ** 3)]!;
const sentence = (words: number) => Array.from({ length: words }, word).join(' ');

const harness = {
  /**
   * Writes `count` sessions of `turns` turns into the search store (every tenth turn of each
   * rewound; the word `quetzal` only in a rewound turn of the first one), and two real sessions
   * of `turns` turns to append to. Returns ms taken and the store's size in characters.
   */
  async seed(count: number, turns: number) {
    const started = performance.now();
    let chars = 0;
    for (let from = 0; from < count; from += 50) {
      const batch: SearchDocInput[] = [];
      for (let i = from; i < Math.min(count, from + 50); i++) {
        const sessionId = `seeded-${i}`;
        const title = sentence(3);
        const lastUpdateTime = 1_700_000_000_000 + i;
        const doc: SearchDocInput = {
          sessionId,
          title,
          seq: turns * 2,
          lastUpdateTime,
          rev: revOf(lastUpdateTime, turns * 2, title),
          turns: Array.from({ length: turns }, (_, t) => ({
            invocationId: `e-${t}`,
            active: t % 10 !== 5,
            time: lastUpdateTime - (turns - t) * 1000,
            text:
              i === 0 && t === 5
                ? `${sentence(8)} quetzal\n${sentence(20)}`
                : `${sentence(10)}\n${sentence(20)}`,
          })),
          state: [
            ['topic', sentence(2)],
            ['count', String(i)],
          ],
          artifacts: [`${word()}-notes.md`],
        };
        chars += doc.turns.reduce((sum, turn) => sum + turn.text.length, 0);
        batch.push(doc);
        seeded.push({ id: sessionId, lastUpdateTime, title });
      }
      await docs.write(batch.map((doc) => ({ doc, turns: doc.turns, replace: true })));
    }
    const real: string[] = [];
    for (let s = 0; s < 2; s++) {
      const session = await sessions.createSession(user);
      for (let t = 0; t < turns; t++) await appendTurn(session.id, t);
      real.push(session.id);
    }
    return { ms: performance.now() - started, chars, real };
  },

  /** A new tab's first search (its index loaded, or built when no snapshot is stored). */
  async firstSearch(name: string, query: string) {
    const started = performance.now();
    const found = await tab(name).search(query);
    return { ms: performance.now() - started, found: found.sessions.length };
  },

  /** Saves the tab's index parts; ms it took, their size and the largest's, in characters. */
  async save(name: string) {
    const started = performance.now();
    await tab(name).save();
    const ms = performance.now() - started;
    const parts = await Promise.all(
      Array.from({ length: BUCKETS }, (_, bucket) => docs.snapshot(bucket, BUCKETS)),
    );
    const sizes = parts.map((part) => part?.index.length ?? 0);
    return { ms, chars: sizes.reduce((a, b) => a + b, 0), largest: Math.max(...sizes) };
  },

  /** Each query typed a key at a time from its second letter: ms of each search, and hits. */
  async typeSearches(name: string, queries: string[]) {
    const ms: number[] = [];
    const found: number[] = [];
    for (const query of queries)
      for (let end = 2; end <= query.length; end++) {
        const started = performance.now();
        const results = await tab(name).search(query.slice(0, end));
        ms.push(performance.now() - started);
        found.push(results.sessions.length);
      }
    return { ms, found };
  },

  /**
   * Appends a turn (a message and its answer) to each real session in turn, the first one's
   * indexed by the tab before the next append (what the worker does after a run), the second
   * one's not: ms of each, in pairs.
   */
  async appends(name: string, real: string[], count: number, first: number) {
    const search = tab(name);
    const indexed: number[] = [];
    const plain: number[] = [];
    for (let i = 0; i < count; i++) {
      const order = i % 2 ? [1, 0] : [0, 1];
      for (const which of order) {
        const started = performance.now();
        await appendTurn(real[which]!, first + i);
        if (which === 0) {
          search.notice({ type: 'session-changed', sessionId: real[0]! });
          await search.flush();
          indexed.push(performance.now() - started);
        } else plain.push(performance.now() - started);
      }
    }
    return { indexed, plain };
  },
  /**
   * Appends `count` turns, to the real sessions in turn, one right after the other (a workflow's
   * pace, the hardest for indexing running beside them); with `listening`, the tab hears each
   * append as the worker's broadcast and indexes in the background, never awaited until the end:
   * ms of each append.
   */
  async paced(name: string, real: string[], count: number, first: number, listening: boolean) {
    const search = tab(name);
    const ms: number[] = [];
    for (let i = 0; i < count; i++) {
      const sessionId = real[i % real.length]!;
      const started = performance.now();
      await appendTurn(sessionId, first + i);
      ms.push(performance.now() - started);
      if (listening) search.notice({ type: 'session-changed', sessionId });
    }
    if (listening) await search.flush();
    return ms;
  },
};

async function appendTurn(sessionId: string, t: number): Promise<void> {
  const invocationId = `turn-${t}`;
  const session = { ...user, id: sessionId };
  const say = (author: string, role: 'user' | 'model', text: string) =>
    createEvent({ invocationId, author, content: { role, parts: [{ text }] } });
  await sessions.appendEvent({ session, event: say('user', 'user', sentence(10)) });
  await sessions.appendEvent({ session, event: say('agent', 'model', sentence(20)) });
}

window.searchHarness = harness;
