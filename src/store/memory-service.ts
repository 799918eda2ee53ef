// The memory service contract (ADK's BaseMemoryService): what sessions leave in a user's memory,
// searched across all of that user's sessions. Trellis adds where each memory came from (its
// session, event and invocation), so that a rewind can take back what the rewound events added
// (runner/rewound-memories.ts). In memory: in-memory-memory-service.ts; in IndexedDB:
// indexeddb-memory-service.ts.

import { activeEvents } from '../core/active-events.ts';
import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { Session, SessionKey } from './session-service.ts';

/** One memory: an event of a past session (ADK's MemoryEntry, with where it came from). */
export interface MemoryEntry {
  content: Content;
  /** `'user'`, or the agent that wrote it. */
  author?: string;
  /** When it was said, ISO 8601 (ADK's format: the memory tools show it to the model). */
  timestamp?: string;
  /** Trellis: the session it came from. */
  sessionId?: string;
  /** Trellis: the event it came from. */
  eventId?: string;
  /** Trellis: that event's invocation. */
  invocationId?: string;
}

export interface SearchMemoryRequest {
  appName: string;
  /** Only this user's memories are searched. */
  userId: string;
  /** What to look for, in the user's words. */
  query: string;
}

export interface SearchMemoryResponse {
  memories: MemoryEntry[];
}

/** A session as memory reads it: a stored Session, or an invocation's working copy of one. */
export type SessionToRemember = Pick<Session, 'id' | 'appName' | 'userId' | 'events'>;

export interface RemoveEventsFromMemoryRequest extends SessionKey {
  /** Events of the session whose memories go (ids it has no memory of are ignored). */
  eventIds: readonly string[];
}

/** ADK's `addEventsToMemory` request, of one session (each memory knows where it came from). */
export interface AddEventsToMemoryRequest extends SessionKey {
  /** Events of the session to remember: those without content are skipped. */
  events: readonly Event[];
}

/** A user of an app, whose memory a listing reads. */
export interface MemoryUserKey {
  appName: string;
  userId: string;
}

export interface ListMemoriesResponse {
  /** One session's memories, oldest first. */
  memories: MemoryEntry[];
}

export interface ListMemorySessionsResponse {
  /** Each session memory holds something of, with how many memories (in no promised order). */
  sessions: { sessionId: string; count: number }[];
}

export abstract class BaseMemoryService {
  /**
   * Remembers a session: each of its active events that has content, in log order (a branch a
   * rewind left is not remembered). Adding a session again replaces what it added before, as
   * ADK's does, so a session added with no events is forgotten.
   */
  abstract addSessionToMemory(session: SessionToRemember): Promise<void>;

  /** The user's memories that match the query (every session of the user's, this app's). */
  abstract searchMemory(request: SearchMemoryRequest): Promise<SearchMemoryResponse>;

  /** The ids of the session's events that memory holds. */
  abstract listMemoryEventIds(request: SessionKey): Promise<string[]>;

  /** Forgets what these events of a session added (a rewind took them off its active path). */
  abstract removeEventsFromMemory(request: RemoveEventsFromMemoryRequest): Promise<void>;

  /**
   * Adds these events of a session to what memory holds of it, unlike `addSessionToMemory`
   * replacing nothing (ADK's `addEventsToMemory`, which its Memory Bank service has): an event
   * held already stays as it is. What an app calls after each turn, so that a memory the user
   * deleted stays deleted.
   */
  abstract addEventsToMemory(request: AddEventsToMemoryRequest): Promise<void>;

  /** Trellis: a session's memories, oldest first (what a view of memory shows and deletes). */
  abstract listMemories(request: SessionKey): Promise<ListMemoriesResponse>;

  /** Trellis: the sessions the user's memory holds something of, without reading the memories. */
  abstract listMemorySessions(request: MemoryUserKey): Promise<ListMemorySessionsResponse>;

  /** Trellis: forgets all a session added (the session was deleted, or the user said so). */
  abstract removeSessionFromMemory(request: SessionKey): Promise<void>;
}

/**
 * The events of a session that memory keeps: its active events with content, oldest first. ADK
 * keeps every event with parts; it has no rewind, so on a log without markers the two agree.
 */
export function eventsToRemember(session: SessionToRemember): Event[] {
  return activeEvents(session.events).filter(hasContent);
}

/** Whether memory can keep anything of an event: it has parts. */
export const hasContent = (event: Event) => (event.content?.parts?.length ?? 0) > 0;

/** An event's time as a memory gives it (ADK's ISO 8601); none for a time no date can hold. */
export function memoryTimestamp(milliseconds: number): string | undefined {
  const date = new Date(milliseconds);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The memory of an event, with where it came from. */
export function memoryOf(
  sessionId: string,
  event: Pick<Event, 'id' | 'invocationId' | 'author' | 'timestamp'>,
  content: Content,
): MemoryEntry {
  const timestamp = memoryTimestamp(event.timestamp);
  return {
    content,
    author: event.author,
    ...(timestamp === undefined ? {} : { timestamp }),
    sessionId,
    eventId: event.id,
    invocationId: event.invocationId,
  };
}
