// What crosses the worker boundary about memory (workers/memory/memory.ts): plain data only.
// `protocol.ts` re-exports it, as the page may import nothing else of the worker's.

/** Sessions a page of the Memory view holds at most. */
export const MEMORY_PAGE_SESSIONS = 20;

/** Characters of a memory's text sent at most (a pasted document stays in the worker). */
export const MEMORY_TEXT_CHARS = 2000;

/** One remembered event, as the Memory view shows it. */
export interface MemoryItem {
  eventId: string;
  /** `user`, or the agent that said it (its identifier). */
  author?: string;
  /** The name the user gave that agent, where it differs from its identifier. */
  authorName?: string;
  /** When it was said, ISO 8601. */
  timestamp?: string;
  /** Its text parts, joined, cut at MEMORY_TEXT_CHARS. */
  text: string;
  /** The whole text's length in characters (more than `text`'s when cut). */
  length: number;
}

/** A session's memories, oldest first, with what the page needs to name and open it. */
export interface RememberedSession {
  sessionId: string;
  title: string;
  /** The session is gone (deleted by the library, or before memory followed deletes). */
  deleted: boolean;
  lastUpdateTime?: number;
  memories: MemoryItem[];
}

/** A page of memory: sessions the newest first, each with all of its memories. */
export interface MemoryPage {
  sessions: RememberedSession[];
  /** Sessions memory holds something of, and memories, in all. */
  sessionCount: number;
  memoryCount: number;
  /** The offset of the next page (absent: this is the last). */
  next?: number;
}
