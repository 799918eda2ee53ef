// A page with nothing but IndexedDbMemoryService on the browser's own IndexedDB:
// test/e2e/memory.test.ts drives it through real IndexedDB semantics (another tab's service on
// the same database, a reload, MiniSearch loaded with the first search), and
// test/bench/chromium/memory.bench.ts times its searches. Services are named by database and tab,
// so two of one database are two tabs.

import { createEvent } from '../../../src/core/event.ts';
import { IndexedDbMemoryService } from '../../../src/store/indexeddb-memory-service.ts';
import type { MemoryEntry, SessionToRemember } from '../../../src/store/memory-service.ts';
import {
  MEMORY_APP,
  MEMORY_QUERIES,
  MEMORY_USER,
  memorySessions,
} from '../../bench/memory-corpus.ts';

declare global {
  interface Window {
    memoryHarness: typeof harness;
  }
}

const services = new Map<string, IndexedDbMemoryService>();

function service(dbName: string, tab = 'a'): IndexedDbMemoryService {
  const key = `${dbName}#${tab}`;
  let found = services.get(key);
  if (!found) services.set(key, (found = new IndexedDbMemoryService({ dbName })));
  return found;
}

/** Each memory as `author: text`. */
const said = (memories: MemoryEntry[]) =>
  memories.map((m) => `${m.author}: ${m.content.parts.map((p) => p.text).join(' ')}`);

const harness = {
  /** Adds a session of `texts` (user and agent in turn) to memory; returns its event ids. */
  async remember(dbName: string, sessionId: string, texts: string[], tab?: string) {
    const session: SessionToRemember = {
      id: sessionId,
      appName: MEMORY_APP,
      userId: MEMORY_USER,
      events: texts.map((text, i) =>
        createEvent({
          invocationId: `e-${i >> 1}`,
          author: i % 2 ? 'agent' : 'user',
          content: { role: i % 2 ? 'model' : 'user', parts: [{ text }] },
        }),
      ),
    };
    await service(dbName, tab).addSessionToMemory(session);
    return session.events.map((event) => event.id);
  },

  async search(dbName: string, query: string, tab?: string, userId = MEMORY_USER) {
    const found = await service(dbName, tab).searchMemory({ appName: MEMORY_APP, userId, query });
    return said(found.memories);
  },

  async forget(dbName: string, sessionId: string, eventIds: string[], tab?: string) {
    const key = { appName: MEMORY_APP, userId: MEMORY_USER, sessionId };
    await service(dbName, tab).removeEventsFromMemory({ ...key, eventIds });
  },

  /** The scripts the page has fetched so far. */
  scripts: () =>
    performance
      .getEntriesByType('resource')
      .map((entry) => entry.name)
      .filter((name) => name.endsWith('.js')),

  /** Remembers the benchmark's sessions (test/bench/memory-corpus.ts); ms it took. */
  async seed(dbName: string, sessions: number) {
    const started = performance.now();
    const memory = service(dbName);
    for (const session of memorySessions(sessions)) await memory.addSessionToMemory(session);
    return performance.now() - started;
  },

  /** One search of each benchmark query by a service: the ms each took, and what it found. */
  async timeSearches(dbName: string, tab?: string) {
    const memory = service(dbName, tab);
    const ms: number[] = [];
    const found: number[] = [];
    for (const query of MEMORY_QUERIES) {
      const started = performance.now();
      const response = await memory.searchMemory({
        appName: MEMORY_APP,
        userId: MEMORY_USER,
        query,
      });
      ms.push(performance.now() - started);
      found.push(response.memories.length);
    }
    return { ms, found };
  },
};

window.memoryHarness = harness;
