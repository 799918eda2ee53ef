// What crosses the worker boundary about search across sessions (workers/search/search.ts):
// plain data only. `protocol.ts` re-exports it, as the page may import nothing else of the
// worker's.

/** The longest query searched, in characters (a longer one is refused, changing nothing). */
export const MAX_SEARCH_QUERY = 200;
/** Sessions a search returns at most (`limit` may ask for fewer). */
export const MAX_SEARCH_SESSIONS = 50;
/** Hits shown per session at most. */
export const SESSION_HITS = 5;

/** Where in a session the words were found. */
export type SearchHitKind = 'title' | 'message' | 'state' | 'artifact';

/** One place the words were found, with its text around them. */
export interface SearchHit {
  kind: SearchHitKind;
  /** A message's turn (its invocation id): where the hit opens. */
  invocationId?: string;
  /** A message's turn is on the session's active branch (false: on a rewound one). */
  active?: boolean;
  /** A state key, or an artifact's name. */
  name?: string;
  /** The text around the words, plain text (never HTML); cut ends begin or end with `…`. */
  snippet: string;
  /** Where the words are in `snippet`: `[start, end)` character offsets, in order. */
  marks: [start: number, end: number][];
  /** The turn's time, in milliseconds. */
  time?: number;
}

/** A session the words were found in, its best hits first. */
export interface SearchSessionHits {
  sessionId: string;
  title: string;
  lastUpdateTime: number;
  hits: SearchHit[];
}

export interface SearchResults {
  /** The words searched for (what the query came to). */
  words: string[];
  sessions: SearchSessionHits[];
}
