// Memory in the app: what the user's agents remember across sessions (one IndexedDbMemoryService
// on the app's database, the runners' `memoryService`), the Memory view's list and deletes, a
// session's *Add to memory*, and what an agent that remembers adds after each turn. Rules:
// - a turn adds only its own events (addEventsToMemory), so a memory the user deleted stays
//   deleted; *Add to memory* adds the whole session again (the user asked for it);
// - what adds a session's events holds the session's lock (a rewind cannot come between reading
//   the events and remembering them); deletes need no lock (they only take memories away);
// - an unknown session or memory is a clear error and changes nothing;
// - every change tells the tabs (`memory-changed`), so that their Memory views follow;
// - rewinds forget on their own: the runner's `rewindAsync` removes what the rewound events
//   added (src/runner/rewound-memories.ts).

import {
  InvalidRequestError,
  SessionNotFoundError,
  type BaseMemoryService,
  type Event,
  type IndexedDbSessionService,
} from '../../src/index.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import { memoryText } from '../../src/store/in-memory-memory-service.ts';
import type { MemoryEntry } from '../../src/store/memory-service.ts';
import { localOnly } from '../remote/adk-servers.ts';
import type { SessionLocks } from '../runs/session-locks.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID } from '../sessions/sessions.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import {
  MEMORY_PAGE_SESSIONS,
  MEMORY_TEXT_CHARS,
  type MemoryItem,
  type MemoryPage,
  type RememberedSession,
} from './memory-protocol.ts';

/** What AppRuntime lends. */
export interface MemoryDeps {
  memory: BaseMemoryService;
  sessions: IndexedDbSessionService;
  store: IndexedDbAppStore;
  locks: SessionLocks;
  broadcast: (message: RuntimeBroadcast) => void;
  /** Whether the session's agent remembers across sessions (a built agent's option). */
  remembers: (sessionId: string) => Promise<boolean>;
  /** The names the user gave agents, by identifier (an event's author), where they differ. */
  authorNames?: () => Promise<Record<string, string>>;
}

/** Log entries read at a time when a turn's events are gathered. */
const LOG_PAGE = 200;

export class AppMemory {
  constructor(private readonly deps: MemoryDeps) {}

  /**
   * A page of what is remembered: sessions whose memory was written last first (by their last
   * update), each with all its memories, oldest first; memories of sessions that are gone last.
   */
  async list(offset = 0, limit = MEMORY_PAGE_SESSIONS): Promise<MemoryPage> {
    const start = wholeAtLeast(offset, 0, 'offset');
    const size = Math.min(wholeAtLeast(limit, 1, 'limit'), MEMORY_PAGE_SESSIONS);
    const { memory, sessions, store } = this.deps;
    const user = { appName: APP_NAME, userId: USER_ID };
    const [{ sessions: held }, { sessions: live }, metas, names] = await Promise.all([
      memory.listMemorySessions(user),
      sessions.listSessions(user),
      store.listSessionMeta(APP_NAME, USER_ID),
      this.deps.authorNames?.() ?? {},
    ]);
    const updated = new Map(live.map((session) => [session.id, session.lastUpdateTime]));
    const titles = new Map(metas.map((meta) => [meta.sessionId, meta.title]));
    const ordered = [...held].sort(
      (a, b) =>
        (updated.get(b.sessionId) ?? -Infinity) - (updated.get(a.sessionId) ?? -Infinity) ||
        a.sessionId.localeCompare(b.sessionId),
    );
    const page = ordered.slice(start, start + size);
    const shown = await Promise.all(
      page.map(async ({ sessionId }): Promise<RememberedSession> => {
        const { memories } = await memory.listMemories({ ...user, sessionId });
        const lastUpdateTime = updated.get(sessionId);
        return {
          sessionId,
          title: titles.get(sessionId) ?? DEFAULT_TITLE,
          deleted: lastUpdateTime === undefined,
          ...(lastUpdateTime === undefined ? {} : { lastUpdateTime }),
          memories: memories.map((entry) => itemOf(entry, names)),
        };
      }),
    );
    const end = start + page.length;
    return {
      sessions: shown,
      sessionCount: held.length,
      memoryCount: held.reduce((sum, { count }) => sum + count, 0),
      ...(end < ordered.length ? { next: end } : {}),
    };
  }

  /** *Add to memory*: the session's active conversation, whole; how many memories it has now. */
  async addSession(sessionId: string): Promise<number> {
    checkId(sessionId, 'session');
    localOnly(sessionId, 'Adding to memory');
    const key = this.key(sessionId);
    const count = await this.deps.locks.withLock(sessionId, async () => {
      const session = await this.deps.sessions.getSession(key);
      if (!session) throw new SessionNotFoundError(sessionId);
      await this.deps.memory.addSessionToMemory(session);
      return (await this.deps.memory.listMemoryEventIds(key)).length;
    });
    this.changed();
    return count;
  }

  /** Deletes one memory; an unknown one is an error (deleted already, in another tab?). */
  async remove(sessionId: string, eventId: string): Promise<void> {
    checkId(sessionId, 'session');
    checkId(eventId, 'memory');
    const key = this.key(sessionId);
    if (!(await this.deps.memory.listMemoryEventIds(key)).includes(eventId))
      throw new InvalidRequestError('This memory is not there any more (deleted in another tab?)');
    await this.deps.memory.removeEventsFromMemory({ ...key, eventIds: [eventId] });
    this.changed();
  }

  /** Deletes all a session added to memory; a session it holds nothing of is an error. */
  async removeSession(sessionId: string): Promise<void> {
    checkId(sessionId, 'session');
    const key = this.key(sessionId);
    if ((await this.deps.memory.listMemoryEventIds(key)).length === 0)
      throw new InvalidRequestError(
        'Memory holds nothing of this session (deleted in another tab?)',
      );
    await this.deps.memory.removeSessionFromMemory(key);
    this.changed();
  }

  /** A deleted session's memories go with it (AppRuntime.deleteSession, under its lock). */
  async forgetSession(sessionId: string): Promise<void> {
    const key = this.key(sessionId);
    if ((await this.deps.memory.listMemoryEventIds(key)).length === 0) return;
    await this.deps.memory.removeSessionFromMemory(key);
    this.changed();
  }

  /**
   * After a run of the session (under its lock): when its agent remembers, the active events of
   * the turns it ran join memory. Never fails the run: memory that cannot be written leaves the
   * turn as it was (a warning says so), and the next turn, or *Add to memory*, tries again.
   */
  async afterTurn(sessionId: string, invocationIds: ReadonlySet<string>): Promise<void> {
    if (invocationIds.size === 0) return;
    try {
      if (!(await this.deps.remembers(sessionId))) return;
      const events = await this.turnEvents(sessionId, invocationIds);
      if (events.length === 0) return;
      await this.deps.memory.addEventsToMemory({ ...this.key(sessionId), events });
      this.changed();
    } catch (error) {
      console.warn('Trellis: a turn could not be added to memory', error);
    }
  }

  /** The active events of these turns, read from the first one's start, not the whole log. */
  private async turnEvents(sessionId: string, invocationIds: ReadonlySet<string>) {
    const key = this.key(sessionId);
    const starts = await Promise.all(
      [...invocationIds].map((invocationId) =>
        this.deps.sessions.getInvocationCheckpoint({ ...key, invocationId }),
      ),
    );
    const firstSeqs = starts.flatMap((start) => (start ? [start.firstSeq] : []));
    if (firstSeqs.length === 0) return [];
    const events: Event[] = [];
    for (let fromSeq = Math.min(...firstSeqs); ;) {
      const page = await this.deps.sessions.listEvents({ ...key, fromSeq, limit: LOG_PAGE });
      if (!page) return events; // the session is gone
      for (const entry of page.entries)
        if (entry.active && invocationIds.has(entry.event.invocationId)) events.push(entry.event);
      fromSeq += page.entries.length;
      if (page.entries.length === 0 || fromSeq >= page.eventCount) return events;
    }
  }

  private changed(): void {
    this.deps.broadcast({ type: 'memory-changed' });
  }

  private key(sessionId: string) {
    return { appName: APP_NAME, userId: USER_ID, sessionId };
  }
}

/** A memory as the view shows it: its text cut, so that a pasted document stays here. */
function itemOf(entry: MemoryEntry, names: Record<string, string>): MemoryItem {
  const text = memoryText(entry);
  const { author } = entry;
  // Own keys only: an agent called `constructor` is not Object's.
  const authorName =
    author !== undefined && Object.hasOwn(names, author) ? names[author] : undefined;
  return {
    eventId: entry.eventId!,
    ...(author === undefined ? {} : { author }),
    ...(authorName === undefined ? {} : { authorName }),
    ...(entry.timestamp === undefined ? {} : { timestamp: entry.timestamp }),
    text: text.length > MEMORY_TEXT_CHARS ? text.slice(0, MEMORY_TEXT_CHARS) : text,
    length: text.length,
  };
}

/** Ids come from the page: anything but a non-empty string of sane length is refused. */
function checkId(value: unknown, what: string): asserts value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 200)
    throw new InvalidRequestError(`That is not a ${what} id`);
}

function wholeAtLeast(value: unknown, min: number, what: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw new InvalidRequestError(`${what} must be a whole number from ${min}`);
  return value;
}
