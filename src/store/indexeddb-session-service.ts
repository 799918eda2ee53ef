// Sessions in IndexedDB. Each write is one transaction: appending an event, applying its state
// delta and taking the invocation's checkpoint commit together or not at all.

import { DuplicateEventError, SessionExistsError, SessionNotFoundError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { newSessionId } from '../core/ids.ts';
import { applyDelta, hasKeys } from '../core/state.ts';
import {
  DatabaseRef,
  Stores,
  sessionRange,
  type IndexedDbServiceOptions,
  type ScopeStateRecord,
  type TrellisDb,
} from './database.ts';
import { EventLogCache } from './event-log-cache.ts';
import {
  appendToRecord,
  checkpointBefore,
  deepFreeze,
  initialStateEvent,
  mayStartInvocation,
  newSessionRecord,
  selectEvents,
  toSession,
  toStoredEvent,
  type SessionRecord,
} from './session-log.ts';
import {
  BaseSessionService,
  numRecentEventsOf,
  type AppendEventRequest,
  type CreateSessionRequest,
  type GetSessionRequest,
  type InvocationCheckpoint,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session,
  type SessionKey,
} from './session-service.ts';
import { readTransaction, writeTransaction, type WriteTx } from './transaction.ts';

const APPEND_STORES = [
  Stores.sessions,
  Stores.events,
  Stores.appStates,
  Stores.userStates,
  Stores.checkpoints,
];
type AppendTx = WriteTx<typeof APPEND_STORES>;

export class IndexedDbSessionService extends BaseSessionService {
  private readonly database: DatabaseRef;
  private readonly cache = new EventLogCache();

  constructor(options: IndexedDbServiceOptions = {}) {
    super();
    this.database = DatabaseRef.acquire(options.dbName);
  }

  get dbName(): string {
    return this.database.name;
  }

  /** @internal The shared connection, for writes that span services (rewind). */
  openDatabase(): Promise<TrellisDb> {
    return this.database.open();
  }

  /** Releases this service's hold on the database connection. */
  close(): Promise<void> {
    return this.database.release();
  }

  override async createSession(request: CreateSessionRequest): Promise<Session> {
    const { appName, userId } = request;
    const id = request.sessionId ?? newSessionId();
    const initial = initialStateEvent(request.state);
    const stored = initial && toStoredEvent(initial);
    const db = await this.database.open();
    const { record, appState, userState } = await writeTransaction(
      db,
      APPEND_STORES,
      async (tx) => {
        if (await tx.objectStore(Stores.sessions).getKey([appName, userId, id])) {
          throw new SessionExistsError(id);
        }
        let record = newSessionRecord(appName, userId, id, Date.now());
        if (stored) record = await appendInTx(tx, record, stored);
        else await tx.objectStore(Stores.sessions).add(record);
        const [appState, userState] = await readScopes(tx, appName, userId);
        return { record, appState, userState };
      },
    );
    const events = stored ? [stored] : [];
    this.cache.set(record, events);
    return toSession(record, appState, userState, events.slice());
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const { appName, userId, sessionId } = request;
    const numRecent = numRecentEventsOf(request);
    const db = await this.database.open();
    return readTransaction(
      db,
      [Stores.sessions, Stores.events, Stores.appStates, Stores.userStates],
      async (tx) => {
        const record = await tx.objectStore(Stores.sessions).get([appName, userId, sessionId]);
        if (!record) return undefined;
        const [appState, userState] = await readScopes(tx, appName, userId);
        const events = tx.objectStore(Stores.events);
        let log = this.cache.get(record);
        if (!log && numRecent !== undefined && request.config?.afterTimestamp === undefined) {
          // Only the tail was asked for: read just that, and leave the cache alone.
          const from = Math.max(0, record.eventCount - Math.max(0, numRecent));
          const tail = numRecent > 0 ? await events.getAll(seqRange(record, from)) : [];
          return toSession(
            record,
            appState,
            userState,
            tail.map((r) => deepFreeze(r.event)),
          );
        }
        if (!log || log.length < record.eventCount) {
          const from = log?.length ?? 0;
          const missing = await events.getAll(seqRange(record, from));
          log = this.cache.extend(
            record,
            log,
            from,
            missing.map((r) => deepFreeze(r.event)),
          );
        }
        const selected = selectEvents(log, numRecent, request.config?.afterTimestamp);
        return toSession(record, appState, userState, selected === log ? log.slice() : selected);
      },
    );
  }

  override async listSessions({
    appName,
    userId,
  }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const db = await this.database.open();
    return readTransaction(
      db,
      [Stores.sessions, Stores.appStates, Stores.userStates],
      async (tx) => {
        const [records, [appState, userState]] = await Promise.all([
          tx.objectStore(Stores.sessions).index('byUser').getAll([appName, userId]),
          readScopes(tx, appName, userId),
        ]);
        const sessions = records.map((record) => toSession(record, appState, userState, []));
        sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
        return { sessions };
      },
    );
  }

  override async deleteSession({ appName, userId, sessionId }: SessionKey): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.sessions, Stores.events, Stores.checkpoints], async (tx) => {
      const sessions = tx.objectStore(Stores.sessions);
      if (!(await sessions.getKey([appName, userId, sessionId]))) {
        throw new SessionNotFoundError(sessionId);
      }
      const range = sessionRange(appName, userId, sessionId);
      await Promise.all([
        sessions.delete([appName, userId, sessionId]),
        tx.objectStore(Stores.events).delete(range),
        tx.objectStore(Stores.checkpoints).delete(range),
      ]);
    });
    this.cache.delete(appName, userId, sessionId);
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    const stored = toStoredEvent(event);
    const { appName, userId, id } = session;
    const db = await this.database.open();
    const record = await writeTransaction(db, APPEND_STORES, async (tx) => {
      const record = await tx.objectStore(Stores.sessions).get([appName, userId, id]);
      if (!record) throw new SessionNotFoundError(id);
      return appendInTx(tx, record, stored);
    });
    this.cache.append(record, stored);
    return stored;
  }

  override async getInvocationCheckpoint(
    request: SessionKey & { invocationId: string },
  ): Promise<InvocationCheckpoint | undefined> {
    const { appName, userId, sessionId, invocationId } = request;
    const db = await this.database.open();
    const record = await db.get(Stores.checkpoints, [appName, userId, sessionId, invocationId]);
    if (!record) return undefined;
    const { firstSeq, state, artifacts } = record;
    return deepFreeze({ invocationId, firstSeq, state, artifacts });
  }
}

function seqRange(record: SessionRecord, from: number): IDBKeyRange {
  const { appName, userId, id } = record;
  return IDBKeyRange.bound([appName, userId, id, from], [appName, userId, id, []]);
}

/** The part of a transaction that reads app and user state (any mode, any wider store list). */
interface ScopeReader {
  objectStore(name: typeof Stores.appStates): {
    get(key: string): Promise<ScopeStateRecord | undefined>;
  };
  objectStore(name: typeof Stores.userStates): {
    get(key: [string, string]): Promise<ScopeStateRecord | undefined>;
  };
}

async function readScopes(
  tx: ScopeReader,
  appName: string,
  userId: string,
): Promise<[Record<string, unknown>, Record<string, unknown>]> {
  const [app, user] = await Promise.all([
    tx.objectStore(Stores.appStates).get(appName),
    tx.objectStore(Stores.userStates).get([appName, userId]),
  ]);
  return [app?.state ?? {}, user?.state ?? {}];
}

/**
 * Appends a stored event to the log inside `tx`; returns the new session record. Reads come
 * first and every write is then issued at once, so no failed write waits unobserved.
 */
async function appendInTx(
  tx: AppendTx,
  record: SessionRecord,
  event: Event,
): Promise<SessionRecord> {
  const { appName, userId, id: sessionId } = record;
  const outcome = appendToRecord(record, event);
  const { app, user } = outcome.deltas;
  const checkpointKey: [string, string, string, string] = [
    appName,
    userId,
    sessionId,
    event.invocationId,
  ];
  const [hasCheckpoint, appState, userState] = await Promise.all([
    mayStartInvocation(record, event.invocationId)
      ? tx
          .objectStore(Stores.checkpoints)
          .getKey(checkpointKey)
          .then((key) => key !== undefined)
      : true,
    hasKeys(app) ? tx.objectStore(Stores.appStates).get(appName) : undefined,
    hasKeys(user) ? tx.objectStore(Stores.userStates).get([appName, userId]) : undefined,
  ]);
  const writes: Promise<unknown>[] = [
    tx
      .objectStore(Stores.events)
      .add({ appName, userId, sessionId, seq: outcome.seq, event })
      .catch((error: unknown) => {
        // The only unique index is the event id within the session.
        if ((error as Error | null)?.name === 'ConstraintError')
          throw new DuplicateEventError(event.id);
        throw error;
      }),
    tx.objectStore(Stores.sessions).put(outcome.record),
  ];
  if (!hasCheckpoint) {
    const { firstSeq, state, artifacts } = checkpointBefore(record, event.invocationId);
    const invocationId = event.invocationId;
    writes.push(
      tx
        .objectStore(Stores.checkpoints)
        .put({ appName, userId, sessionId, invocationId, firstSeq, state, artifacts }),
    );
  }
  if (hasKeys(app)) {
    writes.push(
      tx
        .objectStore(Stores.appStates)
        .put({ appName, state: applyDelta(appState?.state ?? {}, app) }),
    );
  }
  if (hasKeys(user)) {
    const state = applyDelta(userState?.state ?? {}, user);
    writes.push(tx.objectStore(Stores.userStates).put({ appName, userId, state }));
  }
  await Promise.all(writes);
  return outcome.record;
}
