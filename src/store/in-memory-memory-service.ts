// Memory in memory, for tests, demos and InMemoryRunner: ADK's InMemoryMemoryService, keyword
// matching and all (test/unit/store/memory-adk.test.ts runs the two side by side). A memory
// matches when one word of the query, split at white space and lowercased, is one of the words of
// its text (its text parts joined; a word is a run of the letters A–Z, lowercased). Every match is
// returned, session by session in the order they were first added, each session's in log order.
//
// Where it differs from ADK's, on purpose:
// - sessions are kept in a Map, so they come back in the order they were added; ADK keeps them as
//   an object's keys, which puts session ids that look like array indexes ("1", "42") first;
// - the app and the user are two keys, where ADK joins them as `app/user`, so app `a/b` with user
//   `c` and app `a` with user `b/c` are two users here, one there;
// - the events of a branch a rewind left are not remembered (eventsToRemember; ADK has no rewind).

import type { Event } from '../core/event.ts';
import type { SessionKey } from './session-service.ts';
import {
  BaseMemoryService,
  eventsToRemember,
  memoryOf,
  hasContent,
  type AddEventsToMemoryRequest,
  type ListMemoriesResponse,
  type ListMemorySessionsResponse,
  type MemoryEntry,
  type MemoryUserKey,
  type RemoveEventsFromMemoryRequest,
  type SearchMemoryRequest,
  type SearchMemoryResponse,
  type SessionToRemember,
} from './memory-service.ts';

interface Remembered {
  entry: MemoryEntry;
  /** The words of its text, lowercased (empty: it can never match). */
  words: ReadonlySet<string>;
}

const WORD = /[A-Za-z]+/g;

/** The words a memory matches by, as ADK reads them: runs of A–Z letters, lowercased. */
export function wordsOf(text: string): Set<string> {
  return new Set(Array.from(text.matchAll(WORD), (match) => match[0].toLowerCase()));
}

/** The text of a memory's content that search reads: its text parts joined by spaces. */
export function memoryText(entry: Pick<MemoryEntry, 'content'>): string {
  const texts: string[] = [];
  for (const part of entry.content.parts ?? []) if (part.text) texts.push(part.text);
  return texts.join(' ');
}

const userKeyOf = (appName: string, userId: string) => JSON.stringify([appName, userId]);

export class InMemoryMemoryService extends BaseMemoryService {
  /** User (app and user) → session id → its memories, oldest first. */
  private readonly users = new Map<string, Map<string, Remembered[]>>();

  override async addSessionToMemory(session: SessionToRemember): Promise<void> {
    const key = userKeyOf(session.appName, session.userId);
    let sessions = this.users.get(key);
    if (!sessions) this.users.set(key, (sessions = new Map()));
    sessions.set(session.id, eventsToRemember(session).map(rememberedOf(session.id)));
  }

  override async addEventsToMemory(request: AddEventsToMemoryRequest): Promise<void> {
    const { appName, userId, sessionId } = request;
    const key = userKeyOf(appName, userId);
    let sessions = this.users.get(key);
    if (!sessions) this.users.set(key, (sessions = new Map()));
    const held = sessions.get(sessionId) ?? [];
    const ids = new Set(held.map(({ entry }) => entry.eventId));
    const added = request.events.filter((event) => hasContent(event) && !ids.has(event.id));
    sessions.set(sessionId, [...held, ...added.map(rememberedOf(sessionId))]);
  }

  override async searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const sessions = this.users.get(userKeyOf(request.appName, request.userId));
    if (!sessions) return { memories: [] };
    const queryWords = new Set(request.query.toLowerCase().split(/\s+/));
    const memories: MemoryEntry[] = [];
    for (const remembered of sessions.values()) {
      for (const { entry, words } of remembered) {
        if (sharesWord(queryWords, words)) memories.push(entry);
      }
    }
    return { memories };
  }

  override async listMemoryEventIds({ appName, userId, sessionId }: SessionKey): Promise<string[]> {
    const remembered = this.users.get(userKeyOf(appName, userId))?.get(sessionId) ?? [];
    return remembered.map(({ entry }) => entry.eventId!);
  }

  override async removeEventsFromMemory(request: RemoveEventsFromMemoryRequest): Promise<void> {
    const sessions = this.users.get(userKeyOf(request.appName, request.userId));
    const remembered = sessions?.get(request.sessionId);
    if (!sessions || !remembered) return;
    const gone = new Set(request.eventIds);
    sessions.set(
      request.sessionId,
      remembered.filter(({ entry }) => !gone.has(entry.eventId!)),
    );
  }

  override async listMemories({
    appName,
    userId,
    sessionId,
  }: SessionKey): Promise<ListMemoriesResponse> {
    const remembered = this.users.get(userKeyOf(appName, userId))?.get(sessionId) ?? [];
    return { memories: remembered.map(({ entry }) => entry) };
  }

  override async listMemorySessions({
    appName,
    userId,
  }: MemoryUserKey): Promise<ListMemorySessionsResponse> {
    const sessions = this.users.get(userKeyOf(appName, userId)) ?? new Map<string, Remembered[]>();
    return {
      sessions: [...sessions]
        .filter(([, remembered]) => remembered.length > 0)
        .map(([sessionId, remembered]) => ({ sessionId, count: remembered.length })),
    };
  }

  override async removeSessionFromMemory({ appName, userId, sessionId }: SessionKey) {
    this.users.get(userKeyOf(appName, userId))?.delete(sessionId);
  }
}

const rememberedOf =
  (sessionId: string) =>
  (event: Event): Remembered => {
    const entry = memoryOf(sessionId, event, event.content!);
    return { entry, words: wordsOf(memoryText(entry)) };
  };

/** Whether two sets of words meet: walks the smaller one, so a huge query costs no more. */
function sharesWord(a: ReadonlySet<string>, b: ReadonlySet<string>): boolean {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  for (const word of small) if (large.has(word)) return true;
  return false;
}
