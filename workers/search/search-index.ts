// The search index across sessions: MiniSearch (the library memory's index uses too), one
// document per session (its title, its turns' text, its state, its artifacts' names), so that a
// thousand sessions of a hundred turns are a thousand documents, which loads fast; which of a
// session's turns matched is found afterwards in its doc (snippets.ts). MiniSearch is loaded
// with the first index (a dynamic import: no part of a worker that never searches).
// What must stay true: `revs` says exactly which doc revision each session's document is of.

import type MiniSearch from 'minisearch';
import type { SearchDocRecord } from '../../src/store/search-store.ts';

/** The different words of a query looked up at most (its first ones). */
export const MAX_QUERY_TERMS = 16;

interface IndexedSession {
  id: string;
  title: string;
  text: string;
  state: string;
  artifacts: string;
}

/** A session that matched: the indexed words that matched (prefixes expanded), lowercased. */
export interface SessionMatch {
  sessionId: string;
  score: number;
  terms: string[];
}

const OPTIONS = {
  fields: ['title', 'text', 'state', 'artifacts'],
  searchOptions: {
    // Every word of the query must be found in the session; the last one is being typed, so
    // words of three letters or more also find those they begin (two would find half the
    // vocabulary, and cost as much).
    combineWith: 'AND',
    prefix: (term: string) => term.length >= 3,
    boost: { title: 3, artifacts: 2 },
  },
} as const;

let loading: Promise<typeof MiniSearch> | undefined;

function loadMiniSearch(): Promise<typeof MiniSearch> {
  loading ??= import('minisearch').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined; // a chunk that could not be fetched is tried again next time
      throw error;
    },
  );
  return loading;
}

function indexed(doc: SearchDocRecord): IndexedSession {
  return {
    id: doc.sessionId,
    title: doc.title,
    text: doc.turns.map((turn) => turn.text).join('\n'),
    state: doc.state.map(([key, value]) => `${key} ${value}`).join('\n'),
    artifacts: doc.artifacts.join('\n'),
  };
}

export class SessionIndex {
  private constructor(
    private readonly index: MiniSearch<IndexedSession>,
    private readonly tokenize: (text: string) => string[],
    /** Session → the doc revision its document holds. */
    readonly revs: Map<string, string>,
  ) {}

  static async build(docs: readonly SearchDocRecord[]): Promise<SessionIndex> {
    const MiniSearchClass = await loadMiniSearch();
    const index = new MiniSearchClass<IndexedSession>({ ...OPTIONS, fields: [...OPTIONS.fields] });
    index.addAll(docs.map(indexed));
    const revs = new Map(docs.map((doc) => [doc.sessionId, doc.rev]));
    return new SessionIndex(index, MiniSearchClass.getDefault('tokenize'), revs);
  }

  /** The index saved by `toJSON`, with the revisions it was of; throws when it is damaged. */
  static async load(json: string, revs: Iterable<[string, string]>): Promise<SessionIndex> {
    const MiniSearchClass = await loadMiniSearch();
    const index = MiniSearchClass.loadJSON<IndexedSession>(json, {
      ...OPTIONS,
      fields: [...OPTIONS.fields],
    });
    return new SessionIndex(index, MiniSearchClass.getDefault('tokenize'), new Map(revs));
  }

  toJSON(): string {
    return JSON.stringify(this.index);
  }

  /** Puts a doc's revision in, in place of what the index held of its session. */
  put(doc: SearchDocRecord): void {
    if (this.index.has(doc.sessionId)) this.index.discard(doc.sessionId);
    this.index.add(indexed(doc));
    this.revs.set(doc.sessionId, doc.rev);
  }

  remove(sessionId: string): void {
    if (this.index.has(sessionId)) this.index.discard(sessionId);
    this.revs.delete(sessionId);
  }

  /** The query's words, lowercased, each once, the first MAX_QUERY_TERMS. */
  words(query: string): string[] {
    const words = new Set<string>();
    for (const token of this.tokenize(query)) {
      if (words.size === MAX_QUERY_TERMS) break;
      if (token) words.add(token.toLowerCase());
    }
    return [...words];
  }

  /** The best `limit` sessions having every word, the best first. */
  search(words: readonly string[], limit: number): SessionMatch[] {
    if (words.length === 0) return [];
    return this.index
      .search(words.join(' '))
      .slice(0, limit)
      .map((result) => ({
        sessionId: String(result.id),
        score: result.score,
        terms: result.terms.map((term) => term.toLowerCase()),
      }));
  }
}
