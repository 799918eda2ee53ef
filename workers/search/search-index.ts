// The search index across sessions: MiniSearch (the library memory's index uses too), one
// document per session (its title, its turns' text, its state, its artifacts' names), which of a
// session's turns matched found afterwards in its doc (snippets.ts). The index is split by word
// into BUCKETS parts, each a MiniSearch index of every session holding only the words whose
// first three letters fall in its bucket, saved and loaded on its own (Pagefind splits its index
// the same way): a search loads only the parts its words are in, so a new tab's first search
// reads a part of the index, not all of it. MiniSearch itself is loaded with the first index (a
// dynamic import: no part of a worker that never searches).
// What must stay true:
// - a word and every word it begins (a word of three letters or more also finds those) are in
//   one part, so a word is looked up in one part; every part scores a session as the whole index
//   would (same sessions, same field lengths), so the parts' scores add up as MiniSearch's AND;
// - `revs` says which doc revision each session's document is of, in every loaded part: a part
//   loaded from its snapshot catches up with it first (its own revisions are saved with it);
// - a part missing or unreadable builds the index again from every doc (all parts at once).

import type MiniSearch from 'minisearch';
import type { Options } from 'minisearch';
import type {
  SearchDocRecord,
  SearchSnapshotPart,
  SearchSnapshotRecord,
} from '../../src/store/search-store.ts';

/** The different words of a query looked up at most (its first ones). */
export const MAX_QUERY_TERMS = 16;
/** Parts the index is split into. */
export const BUCKETS = 64;

/** The part a lowercased word is in: its first three letters' (FNV-1a). */
export function bucketOf(word: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < Math.min(3, word.length); i++) {
    hash ^= word.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % BUCKETS;
}

const FIELDS = ['title', 'text', 'state', 'artifacts'];

/** A session as the parts index it: each field's words, lowercased, read once for all parts. */
interface IndexedSession {
  id: string;
  title: string[];
  text: string[];
  state: string[];
  artifacts: string[];
}

/** Where the index reads what it loads: the store's snapshots and docs. */
export interface IndexSource {
  snapshot(bucket: number): Promise<SearchSnapshotRecord | undefined>;
  docs(sessionIds: readonly string[]): Promise<SearchDocRecord[]>;
  allDocs(): Promise<SearchDocRecord[]>;
}

/** A session that matched: the indexed words that matched (prefixes expanded), lowercased. */
export interface SessionMatch {
  sessionId: string;
  score: number;
  terms: string[];
}

type Engine = typeof MiniSearch;
type Part = {
  index: MiniSearch<IndexedSession>;
  /** Session → the doc revision this part holds. */
  revs: Map<string, string>;
  /** Changed since it was loaded or saved. */
  dirty: boolean;
};

let loading: Promise<Engine> | undefined;

function loadMiniSearch(): Promise<Engine> {
  loading ??= import('minisearch').then(
    (module) => module.default,
    (error: unknown) => {
      loading = undefined; // a chunk that could not be fetched is tried again next time
      throw error;
    },
  );
  return loading;
}

/** A part's options: its words only; fields arrive as words (tokenized once, for all parts). */
function optionsOf(bucket: number, tokenize: (text: string) => string[]): Options<IndexedSession> {
  return {
    fields: FIELDS,
    stringifyField: (value: unknown) => value as string,
    tokenize: (value: string | string[]) => (Array.isArray(value) ? value : tokenize(value)),
    processTerm: (term: string) => (term !== '' && bucketOf(term) === bucket ? term : null),
    searchOptions: {
      // Every word of the query must be found in the session; the last one is being typed, so
      // words of three letters or more also find those they begin (two would find half the
      // vocabulary, and cost as much). Query words arrive lowercased, and of this part.
      combineWith: 'AND',
      prefix: (term: string) => term.length >= 3,
      boost: { title: 3, artifacts: 2 },
      processTerm: (term: string) => term,
    },
  };
}

export class SessionIndex {
  private readonly parts: (Part | undefined)[] = new Array<Part | undefined>(BUCKETS);
  private readonly loadingParts = new Map<number, Promise<Part>>();

  private constructor(
    private readonly engine: Engine,
    private readonly source: IndexSource,
    /** Session → the doc revision the index is of. */
    readonly revs: Map<string, string>,
  ) {}

  /** The index of docs at these revisions; its parts are loaded as searches need them. */
  static async open(revs: ReadonlyMap<string, string>, source: IndexSource): Promise<SessionIndex> {
    return new SessionIndex(await loadMiniSearch(), source, new Map(revs));
  }

  /** Parts loaded so far (every part once the index was built from the docs). */
  get loaded(): number {
    return this.parts.filter(Boolean).length;
  }

  /** Whether a loaded part changed since it was loaded or saved. */
  get dirty(): boolean {
    return this.parts.some((part) => part?.dirty);
  }

  /** With no part loaded, the revisions it is of are all it holds: these, without reading. */
  follow(revs: ReadonlyMap<string, string>): boolean {
    if (this.loaded > 0) return false;
    this.revs.clear();
    for (const [id, rev] of revs) this.revs.set(id, rev);
    return true;
  }

  /** Puts a doc's revision in, in place of what the index held of its session. */
  put(doc: SearchDocRecord): void {
    const session = this.indexed(doc);
    for (const part of this.parts) if (part) putIn(part, session, doc.rev);
    this.revs.set(doc.sessionId, doc.rev);
  }

  remove(sessionId: string): void {
    for (const part of this.parts) if (part) removeFrom(part, sessionId);
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

  /** The best `limit` sessions having every word, the best first (loads the parts needed). */
  async search(words: readonly string[], limit: number): Promise<SessionMatch[]> {
    if (words.length === 0) return [];
    const byPart = new Map<number, string[]>();
    for (const word of words) {
      const bucket = bucketOf(word);
      byPart.set(bucket, [...(byPart.get(bucket) ?? []), word]);
    }
    // MiniSearch scores a session by its words' scores added up, times how many words it has:
    // each part's score is taken apart so, and put together again.
    let found: Map<string, SessionMatch & { raw: number; words: number }> | undefined;
    for (const [bucket, partWords] of byPart) {
      const part = await this.part(bucket);
      const next: typeof found = new Map();
      for (const result of part.index.search(partWords.join(' '))) {
        const sessionId = String(result.id);
        const held = found?.get(sessionId);
        if (found && !held) continue;
        const count = result.queryTerms.length || 1;
        const terms = result.terms.map((term) => term.toLowerCase());
        const raw = (held?.raw ?? 0) + result.score / count;
        const words = (held?.words ?? 0) + count;
        next.set(sessionId, {
          sessionId,
          raw,
          words,
          score: raw * words,
          terms: held ? [...new Set([...held.terms, ...terms])] : terms,
        });
      }
      found = next;
      if (found.size === 0) break;
    }
    return [...(found?.values() ?? [])]
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
      .map(({ sessionId, score, terms }) => ({ sessionId, score, terms }));
  }

  /** The loaded parts changed since they were loaded or saved, as their snapshots. */
  changedParts(): SearchSnapshotPart[] {
    const changed: SearchSnapshotPart[] = [];
    this.parts.forEach((part, bucket) => {
      if (part?.dirty)
        changed.push({ bucket, index: JSON.stringify(part.index), revs: [...part.revs] });
    });
    return changed;
  }

  /** Says these parts' snapshots are saved (none changed since `changedParts`). */
  saved(parts: readonly SearchSnapshotPart[]): void {
    for (const { bucket } of parts) {
      const part = this.parts[bucket];
      if (part) part.dirty = false;
    }
  }

  private get tokenize(): (text: string) => string[] {
    return this.engine.getDefault('tokenize') as (text: string) => string[];
  }

  private indexed(doc: SearchDocRecord): IndexedSession {
    const words = (text: string) => this.tokenize(text).map((token) => token.toLowerCase());
    return {
      id: doc.sessionId,
      title: words(doc.title),
      text: doc.turns.flatMap((turn) => words(turn.text)),
      state: doc.state.flatMap(([key, value]) => words(`${key} ${value}`)),
      artifacts: doc.artifacts.flatMap(words),
    };
  }

  /** A part, loaded (once, however many ask) from its snapshot, or every part built again. */
  private part(bucket: number): Promise<Part> {
    const held = this.parts[bucket];
    if (held) return Promise.resolve(held);
    let loading = this.loadingParts.get(bucket);
    if (!loading) {
      loading = this.loadPart(bucket).finally(() => this.loadingParts.delete(bucket));
      this.loadingParts.set(bucket, loading);
    }
    return loading;
  }

  private async loadPart(bucket: number): Promise<Part> {
    const snapshot = await this.source.snapshot(bucket);
    let part: Part | undefined;
    if (snapshot) {
      try {
        const index = this.engine.loadJSON<IndexedSession>(
          snapshot.index,
          optionsOf(bucket, this.tokenize),
        );
        part = { index, revs: new Map(snapshot.revs), dirty: false };
      } catch (error) {
        console.warn('Trellis: a saved search index part could not be read; building again', error);
      }
    }
    if (!part) {
      await this.build();
      return this.parts[bucket]!;
    }
    // Catches up with the index: the sessions whose revisions differ are read again.
    const behind = [...this.revs].filter(([id, rev]) => part.revs.get(id) !== rev);
    for (const id of [...part.revs.keys()]) if (!this.revs.has(id)) removeFrom(part, id);
    const docs = await this.source.docs(behind.map(([id]) => id));
    const read = new Set(docs.map((doc) => doc.sessionId));
    for (const doc of docs) putIn(part, this.indexed(doc), doc.rev);
    for (const [id] of behind) if (!read.has(id)) removeFrom(part, id);
    this.parts[bucket] ??= part;
    return this.parts[bucket];
  }

  /** Every part built again from every stored doc (each read and split into words once). */
  private async build(): Promise<void> {
    const docs = await this.source.allDocs();
    const fresh = Array.from({ length: BUCKETS }, (_, bucket): Part => {
      const index = new this.engine<IndexedSession>(optionsOf(bucket, this.tokenize));
      return { index, revs: new Map(), dirty: true };
    });
    for (const doc of docs) {
      const session = this.indexed(doc);
      for (const part of fresh) putIn(part, session, doc.rev);
    }
    fresh.forEach((part, bucket) => (this.parts[bucket] = part));
    this.revs.clear();
    for (const doc of docs) this.revs.set(doc.sessionId, doc.rev);
  }
}

function putIn(part: Part, session: IndexedSession, rev: string): void {
  if (part.index.has(session.id)) part.index.discard(session.id);
  part.index.add(session);
  part.revs.set(session.id, rev);
  part.dirty = true;
}

function removeFrom(part: Part, sessionId: string): void {
  if (part.index.has(sessionId)) part.index.discard(sessionId);
  if (part.revs.delete(sessionId)) part.dirty = true;
}
