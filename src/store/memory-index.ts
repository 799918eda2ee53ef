// The search index of one user's memories (IndexedDbMemoryService): MiniSearch, a full-text
// index ranked by BM25, held in memory and built from the stored records when a search finds it
// missing or stale. MiniSearch is loaded with the first index (a dynamic import, so it is no part
// of the app's first chunk, nor of a run that never searches memory).

import type MiniSearch from 'minisearch';
import type { MemoryRecord } from './database.ts';
import { memoryOf, type MemoryEntry } from './memory-service.ts';

/** What the index holds of a memory: its text to search, the entry to return. */
interface IndexedMemory {
  id: string;
  text: string;
  entry: MemoryEntry;
}

/**
 * At most this many different words of a query are looked up (its first ones): a query is a
 * few words, or a user's message (PRELOAD_MEMORY), and a pasted book must not cost a search of
 * every word in it.
 */
export const MAX_QUERY_TERMS = 64;

let loading: Promise<typeof MiniSearch> | undefined;

function loadMiniSearch(): Promise<typeof MiniSearch> {
  loading ??= import('minisearch').then(
    (module) => module.default,
    (error: unknown) => {
      // A failed load (a chunk the browser could not fetch) is tried again by the next search.
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The index's id of a memory: its session and event, which no other memory of the user has. */
export function memoryId(sessionId: string, eventId: string): string {
  return JSON.stringify([sessionId, eventId]);
}

function indexed(record: MemoryRecord): IndexedMemory {
  const texts: string[] = [];
  for (const part of record.content.parts) if (part.text) texts.push(part.text);
  const { eventId: id, invocationId, author, timestamp } = record;
  return {
    id: memoryId(record.sessionId, id),
    text: texts.join(' '),
    entry: memoryOf(record.sessionId, { id, invocationId, author, timestamp }, record.content),
  };
}

/** A change of the stored memory, from one revision to the next. */
export interface MemoryChange {
  /** The revision it was made on (`undefined`: the user had no memory yet). */
  before: string | undefined;
  after: string;
  /** Index ids of the memories it removed. */
  removed: readonly string[];
  added: readonly MemoryRecord[];
}

export class MemoryIndex {
  private constructor(
    private readonly index: MiniSearch<IndexedMemory>,
    private readonly tokenize: (text: string) => string[],
    /** The revision of the stored memory the index holds. */
    public revision: string,
  ) {}

  static async build(records: readonly MemoryRecord[], revision: string): Promise<MemoryIndex> {
    const MiniSearchClass = await loadMiniSearch();
    const index = new MiniSearchClass<IndexedMemory>({
      fields: ['text'],
      storeFields: ['entry'],
      searchOptions: {
        // A memory matches by any of the query's words, as ADK's keyword matching does; the
        // ones that share the rarest words come first. A word of four letters or more also
        // finds longer ones it begins (`rain` finds `raining`), weighted below an exact match.
        combineWith: 'OR',
        prefix: (term) => term.length >= 4,
      },
    });
    index.addAll(records.map(indexed));
    return new MemoryIndex(index, MiniSearchClass.getDefault('tokenize'), revision);
  }

  /** The best `limit` memories for `query`, the best first. */
  search(query: string, limit: number): MemoryEntry[] {
    const terms = new Set<string>();
    for (const token of this.tokenize(query)) {
      if (terms.size === MAX_QUERY_TERMS) break;
      if (token) terms.add(token.toLowerCase());
    }
    if (terms.size === 0) return [];
    return this.index
      .search([...terms].join(' '))
      .slice(0, limit)
      .map((result) => result['entry'] as MemoryEntry);
  }

  /** Follows a change made on the revision the index holds. */
  apply(change: MemoryChange): void {
    for (const id of change.removed) if (this.index.has(id)) this.index.discard(id);
    this.index.addAll(change.added.map(indexed));
    this.revision = change.after;
  }
}
