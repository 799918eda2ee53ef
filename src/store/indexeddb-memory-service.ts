// Memory in IndexedDB, in the database of the sessions it comes from: store `memories` holds one
// record per remembered event (keyed `[app, user, session, event]`, its text parts only), and
// `memoryRevisions` each user's revision, renewed by every write. A search runs on a MiniSearch
// index of the user's memories held by this service (memory-index.ts): built from the records on
// the first search, kept in step with this service's own writes, and built again when the stored
// revision is not the one it holds (another tab wrote). What is stored is the truth; the index
// is only ever a copy of one revision of it.
//
// Unlike the in-memory service's keyword matching (ADK's), a search here is ranked: memories that
// share the query's rarer words come first, and only the best `maxResults` are returned.

import type { Content } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { DatabaseRef, type IndexedDbServiceOptions } from './connection.ts';
import { Stores, sessionRange, type MemoryRecord, type TrellisDb } from './database.ts';
import { MemoryIndex, memoryId, type MemoryChange } from './memory-index.ts';
import {
  BaseMemoryService,
  eventsToRemember,
  hasContent,
  memoryOf,
  type AddEventsToMemoryRequest,
  type ListMemoriesResponse,
  type ListMemorySessionsResponse,
  type MemoryUserKey,
  type RemoveEventsFromMemoryRequest,
  type SearchMemoryRequest,
  type SearchMemoryResponse,
  type SessionToRemember,
} from './memory-service.ts';
import type { SessionKey } from './session-service.ts';
import { readTransaction, writeTransaction, type WriteTx } from './transaction.ts';

export interface IndexedDbMemoryServiceOptions extends IndexedDbServiceOptions {
  /** The most memories a search returns, the best first (default 20). */
  maxResults?: number;
}

export const DEFAULT_MAX_MEMORY_RESULTS = 20;

const MEMORY_STORES = [Stores.memories, Stores.memoryRevisions];
type MemoryTx = WriteTx<typeof MEMORY_STORES>;

const userKeyOf = (appName: string, userId: string) => JSON.stringify([appName, userId]);

/** Every memory record of a user. */
function userRange(appName: string, userId: string): IDBKeyRange {
  // An array key sorts after every string, so `[…, []]` bounds any session and event.
  return IDBKeyRange.bound([appName, userId], [appName, userId, []]);
}

export class IndexedDbMemoryService extends BaseMemoryService {
  private readonly database: DatabaseRef;
  private readonly maxResults: number;
  /** User → the index of their memories, at the revision it says. */
  private readonly indexes = new Map<string, MemoryIndex>();
  /** User and revision → an index being built from that revision (or a later one). */
  private readonly building = new Map<string, Promise<MemoryIndex | undefined>>();

  constructor(options: IndexedDbMemoryServiceOptions = {}) {
    super();
    this.database = DatabaseRef.acquire(options.dbName);
    this.maxResults = Math.max(1, Math.floor(options.maxResults ?? DEFAULT_MAX_MEMORY_RESULTS));
  }

  /** Releases this service's hold on the database connection. */
  close(): Promise<void> {
    return this.database.release();
  }

  override async addSessionToMemory(session: SessionToRemember): Promise<void> {
    const { appName, userId, id: sessionId } = session;
    const records = eventsToRemember(session).flatMap((event) => {
      const record = recordOf(session, event);
      return record ? [record] : [];
    });
    const wanted = new Map(records.map((record) => [record.eventId, record]));
    await this.change(appName, userId, async (tx) => {
      const store = tx.objectStore(Stores.memories);
      const held = await store.getAllKeys(sessionRange(appName, userId, sessionId));
      // An event's content never changes, so what is held already stays as it is.
      const gone = held.filter((key) => !wanted.delete(key[3]));
      const added = [...wanted.values()];
      await Promise.all([
        ...gone.map((key) => store.delete(key)),
        ...added.map((record) => store.put(record)),
      ]);
      return { removed: gone.map((key) => memoryId(key[2], key[3])), added };
    });
  }

  override async addEventsToMemory(request: AddEventsToMemoryRequest): Promise<void> {
    const { appName, userId, sessionId } = request;
    const session = { id: sessionId, appName, userId };
    const wanted = new Map<string, MemoryRecord>();
    for (const event of request.events) {
      const record = hasContent(event) ? recordOf(session, event) : undefined;
      if (record) wanted.set(record.eventId, record);
    }
    if (wanted.size === 0) return;
    await this.change(appName, userId, async (tx) => {
      const store = tx.objectStore(Stores.memories);
      const held = await store.getAllKeys(sessionRange(appName, userId, sessionId));
      for (const key of held) wanted.delete(key[3]);
      const added = [...wanted.values()];
      await Promise.all(added.map((record) => store.put(record)));
      return { removed: [], added };
    });
  }

  override async searchMemory({
    appName,
    userId,
    query,
  }: SearchMemoryRequest): Promise<SearchMemoryResponse> {
    const db = await this.database.open();
    const index = await this.indexOf(db, appName, userId);
    return { memories: index ? index.search(query, this.maxResults) : [] };
  }

  override async listMemoryEventIds({ appName, userId, sessionId }: SessionKey): Promise<string[]> {
    const db = await this.database.open();
    const keys = await readTransaction(db, [Stores.memories], (tx) =>
      tx.objectStore(Stores.memories).getAllKeys(sessionRange(appName, userId, sessionId)),
    );
    return keys.map((key) => key[3]);
  }

  override async removeEventsFromMemory(request: RemoveEventsFromMemoryRequest): Promise<void> {
    const { appName, userId, sessionId } = request;
    const ids = new Set(request.eventIds);
    await this.change(appName, userId, async (tx) => {
      const store = tx.objectStore(Stores.memories);
      const held = await store.getAllKeys(sessionRange(appName, userId, sessionId));
      const gone = held.filter((key) => ids.has(key[3]));
      await Promise.all(gone.map((key) => store.delete(key)));
      return { removed: gone.map((key) => memoryId(key[2], key[3])), added: [] };
    });
  }

  override async listMemories({
    appName,
    userId,
    sessionId,
  }: SessionKey): Promise<ListMemoriesResponse> {
    const db = await this.database.open();
    const records = await readTransaction(db, [Stores.memories], (tx) =>
      tx.objectStore(Stores.memories).getAll(sessionRange(appName, userId, sessionId)),
    );
    // Records sort by event id; a session's events are in time order (a stable sort keeps ties).
    records.sort((a, b) => a.timestamp - b.timestamp);
    return {
      memories: records.map((record) =>
        memoryOf(sessionId, { ...record, id: record.eventId }, record.content),
      ),
    };
  }

  override async listMemorySessions({
    appName,
    userId,
  }: MemoryUserKey): Promise<ListMemorySessionsResponse> {
    const db = await this.database.open();
    // Keys only: what is counted is never read whole.
    const keys = await readTransaction(db, [Stores.memories], (tx) =>
      tx.objectStore(Stores.memories).getAllKeys(userRange(appName, userId)),
    );
    const counts = new Map<string, number>();
    for (const key of keys) counts.set(key[2], (counts.get(key[2]) ?? 0) + 1);
    return { sessions: [...counts].map(([sessionId, count]) => ({ sessionId, count })) };
  }

  override async removeSessionFromMemory({ appName, userId, sessionId }: SessionKey) {
    await this.change(appName, userId, async (tx) => {
      const store = tx.objectStore(Stores.memories);
      const range = sessionRange(appName, userId, sessionId);
      const held = await store.getAllKeys(range);
      if (held.length > 0) await store.delete(range);
      return { removed: held.map((key) => memoryId(key[2], key[3])), added: [] };
    });
  }

  /**
   * Runs a write of a user's memory in one transaction that also renews their revision (when it
   * changed anything), then brings this service's index along.
   */
  private async change(
    appName: string,
    userId: string,
    write: (tx: MemoryTx) => Promise<Pick<MemoryChange, 'removed' | 'added'>>,
  ): Promise<void> {
    const db = await this.database.open();
    const change = await writeTransaction(db, MEMORY_STORES, async (tx) => {
      const revisions = tx.objectStore(Stores.memoryRevisions);
      const [before, made] = await Promise.all([revisions.get([appName, userId]), write(tx)]);
      if (made.removed.length === 0 && made.added.length === 0) return undefined;
      const after = crypto.randomUUID();
      await revisions.put({ appName, userId, revision: after });
      return { before: before?.revision, after, ...made };
    });
    if (change) this.follow(userKeyOf(appName, userId), change);
  }

  /** Brings the user's index to a change just stored, or drops it when it cannot follow. */
  private follow(key: string, change: MemoryChange): void {
    const index = this.indexes.get(key);
    if (!index) return;
    if (index.revision === change.before) index.apply(change);
    // Built from a revision after the change already (a search read it meanwhile), or another
    // tab's change came between: the next search builds it again from what is stored.
    else if (index.revision !== change.after) this.indexes.delete(key);
  }

  /** The user's index as of their stored revision (`undefined`: they have no memory). */
  private async indexOf(
    db: TrellisDb,
    appName: string,
    userId: string,
  ): Promise<MemoryIndex | undefined> {
    const stored = await readTransaction(db, [Stores.memoryRevisions], (tx) =>
      tx.objectStore(Stores.memoryRevisions).get([appName, userId]),
    );
    if (!stored) return undefined;
    const key = userKeyOf(appName, userId);
    const held = this.indexes.get(key);
    if (held?.revision === stored.revision) return held;
    // Searches that read the same revision share one build; it may read a later one, never an
    // earlier one.
    const buildKey = `${key}\n${stored.revision}`;
    let building = this.building.get(buildKey);
    if (!building) {
      building = this.build(db, appName, userId).finally(() => this.building.delete(buildKey));
      this.building.set(buildKey, building);
    }
    return building;
  }

  private async build(
    db: TrellisDb,
    appName: string,
    userId: string,
  ): Promise<MemoryIndex | undefined> {
    const { stored, records } = await readTransaction(db, MEMORY_STORES, async (tx) => {
      const [stored, records] = await Promise.all([
        tx.objectStore(Stores.memoryRevisions).get([appName, userId]),
        tx.objectStore(Stores.memories).getAll(userRange(appName, userId)),
      ]);
      return { stored, records };
    });
    if (!stored) return undefined;
    const index = await MemoryIndex.build(records, stored.revision);
    const key = userKeyOf(appName, userId);
    // A change this service stored while the index was built has dropped or moved the one held;
    // whichever is held, the next search compares it with the stored revision.
    this.indexes.set(key, index);
    return index;
  }
}

/** The record of an event's text; none for an event with no text (search could never find it). */
function recordOf(
  session: Omit<SessionToRemember, 'events'>,
  event: Event,
): MemoryRecord | undefined {
  const parts = event.content!.parts.flatMap((part) =>
    part.text ? [{ text: part.text, ...(part.thought ? { thought: true } : {}) }] : [],
  );
  if (parts.length === 0) return undefined;
  const content: Content = { role: event.content!.role, parts };
  return {
    appName: session.appName,
    userId: session.userId,
    sessionId: session.id,
    eventId: event.id,
    invocationId: event.invocationId,
    author: event.author,
    timestamp: event.timestamp,
    content,
  };
}
