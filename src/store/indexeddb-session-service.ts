// Sessions in IndexedDB. Each write is one transaction: appending an event, applying its state
// delta and taking the invocation's checkpoint commit together or not at all.

import { SessionNotFoundError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { newSessionId } from '../core/ids.ts';
import { LogPrefix } from '../core/log-prefix.ts';
import { createRewindMarker, planRewind, requestedRewindTarget } from '../core/rewind.ts';
import { setOwn } from '../core/state.ts';
import { Stores, sessionRange, type TrellisDb } from './database.ts';
import { DatabaseRef, withStorageErrors, type IndexedDbServiceOptions } from './connection.ts';
import type { BaseArtifactService } from './artifact-service.ts';
import { EventLogCache } from './event-log-cache.ts';
import { IndexedDbAppends } from './indexeddb-appends.ts';
import {
  IndexedDbArtifactService,
  importedVersionRecords,
  restoreVersionInTx,
  versionContentOf,
} from './indexeddb-artifact-service.ts';
import { planImport } from './session-import.ts';
import { forkInTx, importInTx } from './session-copies.ts';
import {
  artifactsNotAtomic,
  deepFreeze,
  initialStateEvent,
  NO_TURN,
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
  type ForkSessionRequest,
  type GetSessionRequest,
  type GetSessionSummaryRequest,
  type GetSwitchMarkerRequest,
  type ListEventsRequest,
  type LogPage,
  type SessionSummary as SessionSummaryView,
  type ImportSessionRequest,
  type InvocationCheckpoint,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type RewindSessionRequest,
  type RunKey,
  type RunRecord,
  type Session,
  type SessionKey,
} from './session-service.ts';
import { snapshotToRestore } from './rewind-point.ts';
import {
  SUMMARY_STORES,
  indexedDbTurnReader,
  rewindReader,
  type SummaryTx,
} from './indexeddb-turns.ts';
import { readSessionSummary, switchMarker, type TurnReader } from './turn-summary.ts';
import { readLogPage } from './log-page.ts';
import { heldStateOf } from './long-values.ts';
import { addSession, appendInTx, heldRecordOf, readScopes, seqRange } from './session-writes.ts';
import { WRITE_STORES } from './transaction.ts';
import { readTransaction, writeTransaction } from './transaction.ts';

export class IndexedDbSessionService extends BaseSessionService {
  private readonly database: DatabaseRef;
  private readonly cache = new EventLogCache();
  private readonly appends: IndexedDbAppends;

  constructor(options: IndexedDbServiceOptions = {}) {
    super();
    this.database = DatabaseRef.acquire(options.dbName);
    this.appends = new IndexedDbAppends(this.database, this.cache);
  }

  get dbName(): string {
    return this.database.name;
  }

  /** @internal The shared connection, for writes that span services (rewind). */
  openDatabase(): Promise<TrellisDb> {
    return this.database.open();
  }

  /** Whether artifacts of `service` can be written in this service's transactions. */
  private sharesDatabase(service: BaseArtifactService | undefined): boolean {
    return service instanceof IndexedDbArtifactService && service.dbName === this.dbName;
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
    const { record, appState, userState } = await writeTransaction(db, WRITE_STORES, async (tx) => {
      let record = newSessionRecord(appName, userId, id, Date.now());
      await addSession(tx, record);
      if (stored) record = await appendInTx(tx, record, stored);
      const [appState, userState] = await readScopes(tx, appName, userId);
      return { record, appState, userState };
    });
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
      [Stores.sessions, Stores.events, Stores.appStates, Stores.userStates, Stores.longValues],
      async (tx) => {
        const found = await tx.objectStore(Stores.sessions).get([appName, userId, sessionId]);
        if (!found) return undefined;
        const record = await heldRecordOf(tx, found);
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
        // The cache only appends to its log: a prefix of it is the session's snapshot, no copy.
        return toSession(
          record,
          appState,
          userState,
          selected === log ? LogPrefix.of(log) : selected,
        );
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
      [Stores.sessions, Stores.appStates, Stores.userStates, Stores.longValues],
      async (tx) => {
        const [found, [appState, userState]] = await Promise.all([
          tx.objectStore(Stores.sessions).index('byUser').getAll([appName, userId]),
          readScopes(tx, appName, userId),
        ]);
        const records = await Promise.all(found.map((record) => heldRecordOf(tx, record)));
        const sessions = records.map((record) => toSession(record, appState, userState, []));
        sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
        return { sessions };
      },
    );
  }

  override async deleteSession({ appName, userId, sessionId }: SessionKey): Promise<void> {
    const db = await this.database.open();
    // Its spans too (IndexedDbTraceService keeps them in this database).
    const stores = [
      Stores.sessions,
      Stores.events,
      Stores.checkpoints,
      Stores.runs,
      Stores.spans,
      Stores.longValues,
    ];
    await writeTransaction(db, stores, async (tx) => {
      const sessions = tx.objectStore(Stores.sessions);
      if (!(await sessions.getKey([appName, userId, sessionId]))) {
        throw new SessionNotFoundError(sessionId);
      }
      const range = sessionRange(appName, userId, sessionId);
      await Promise.all([
        sessions.delete([appName, userId, sessionId]),
        tx.objectStore(Stores.events).delete(range),
        tx.objectStore(Stores.checkpoints).delete(range),
        tx.objectStore(Stores.runs).delete(range),
        tx.objectStore(Stores.spans).delete(range),
        tx.objectStore(Stores.longValues).delete(range),
      ]);
    });
    this.cache.delete(appName, userId, sessionId);
  }

  override async appendEvent({
    session,
    event,
    run,
    artifacts,
  }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    if (artifacts && !this.sharesDatabase(artifacts.artifactService)) throw artifactsNotAtomic();
    const stored = toStoredEvent(event);
    // The bytes become Blobs before the transaction, which may only wait on its own requests.
    const files = artifacts?.files.map(({ filename, artifact }) => ({
      filename,
      content: versionContentOf({
        appName: session.appName,
        userId: session.userId,
        sessionId: session.id,
        filename,
        artifact,
      }),
    }));
    return this.appends.append(session, stored, run, files);
  }

  override async rewindSession(request: RewindSessionRequest): Promise<Event> {
    const target = requestedRewindTarget(request);
    const { appName, userId, sessionId } = request;
    const sharesDb = this.sharesDatabase(request.artifactService);
    const db = await this.database.open();
    const { marker, record } = await writeTransaction(db, WRITE_STORES, async (tx) => {
      const found = await tx.objectStore(Stores.sessions).get([appName, userId, sessionId]);
      if (!found) throw new SessionNotFoundError(sessionId);
      const record = await heldRecordOf(tx, found);
      const restored = await snapshotToRestore(rewindReader(tx, record), target, sessionId);
      const plan = planRewind(record, restored);
      const artifactDelta: Record<string, number> = {};
      if (request.artifactService && plan.artifacts.length > 0) {
        if (!sharesDb) throw artifactsNotAtomic();
        for (const { filename, restoreVersion } of plan.artifacts) {
          const key = { appName, userId, sessionId, filename };
          setOwn(artifactDelta, filename, await restoreVersionInTx(tx, key, restoreVersion));
        }
      }
      const marker = toStoredEvent(createRewindMarker(target, plan.stateDelta, artifactDelta));
      return { marker, record: await appendInTx(tx, record, marker) };
    });
    this.cache.append(record, marker);
    return marker;
  }

  override async forkSession(request: ForkSessionRequest): Promise<Session> {
    const id = request.newSessionId ?? newSessionId();
    const sharesDb = this.sharesDatabase(request.artifactService);
    const db = await this.database.open();
    const { record, events, appState, userState } = await writeTransaction(db, WRITE_STORES, (tx) =>
      forkInTx(tx, request, id, sharesDb),
    );
    this.cache.set(record, events);
    return toSession(record, appState, userState, events.slice());
  }

  override async putRun(run: RunRecord): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.runs], (tx) => tx.objectStore(Stores.runs).put(run));
  }

  override async deleteRun({ appName, userId, sessionId, invocationId }: RunKey): Promise<void> {
    const db = await this.database.open();
    await writeTransaction(db, [Stores.runs], (tx) =>
      tx.objectStore(Stores.runs).delete([appName, userId, sessionId, invocationId]),
    );
  }

  override async listRuns(request: {
    appName: string;
    userId: string;
    sessionId?: string;
  }): Promise<RunRecord[]> {
    const { appName, userId, sessionId } = request;
    const db = await this.database.open();
    return withStorageErrors(
      () =>
        sessionId !== undefined
          ? db.getAll(Stores.runs, sessionRange(appName, userId, sessionId))
          : db.getAllFromIndex(Stores.runs, 'byUser', [appName, userId]),
      'read',
    );
  }

  override async importSession(request: ImportSessionRequest): Promise<Session> {
    const { appName, userId, artifactService } = request;
    const id = request.sessionId ?? newSessionId();
    const plan = await planImport(request.events, { restoresArtifacts: !!artifactService });
    const scope = { appName, userId, sessionId: id };
    // The bytes become Blobs before the transaction, which may only wait on its own requests.
    const versions = importedVersionRecords(scope, plan.artifacts);
    if (versions.length > 0 && !this.sharesDatabase(artifactService)) throw artifactsNotAtomic();
    const { events } = plan;
    const db = await this.database.open();
    const { record, appState, userState } = await writeTransaction(db, WRITE_STORES, (tx) =>
      importInTx(tx, scope, events, versions, request.lastUpdateTime),
    );
    this.cache.set(record, events);
    return toSession(record, appState, userState, events.slice());
  }

  override async getSessionSummary(
    request: GetSessionSummaryRequest,
  ): Promise<SessionSummaryView | undefined> {
    const { appName, userId } = request;
    return this.readTurns(request, async (reader, record, tx) => {
      const [appState, userState] = await readScopes(tx, appName, userId);
      const session = toSession(record, appState, userState, []);
      return deepFreeze(await readSessionSummary(reader, session, record.tip ?? NO_TURN, request));
    });
  }

  override async getSwitchMarker(request: GetSwitchMarkerRequest): Promise<string> {
    const { sessionId, invocationId } = request;
    const marker = await this.readTurns(request, (reader, record) =>
      switchMarker(reader, record.tip ?? NO_TURN, invocationId, sessionId),
    );
    if (marker === undefined) throw new SessionNotFoundError(sessionId);
    return marker;
  }

  override async listEvents(request: ListEventsRequest): Promise<LogPage | undefined> {
    return this.readTurns(request, async (reader) =>
      deepFreeze(await readLogPage(reader, request.fromSeq ?? 0, request.limit ?? 100)),
    );
  }

  /** Runs `read` over the session's turn summary in one read transaction (none: `undefined`). */
  private async readTurns<T>(
    { appName, userId, sessionId }: SessionKey,
    read: (reader: TurnReader, record: SessionRecord, tx: SummaryTx) => Promise<T>,
  ): Promise<T | undefined> {
    const db = await this.database.open();
    return readTransaction(db, SUMMARY_STORES, async (tx) => {
      const found = await tx.objectStore(Stores.sessions).get([appName, userId, sessionId]);
      if (!found) return undefined;
      const record = await heldRecordOf(tx, found);
      return read(indexedDbTurnReader(tx, record), record, tx);
    });
  }

  override async getInvocationCheckpoint(
    request: SessionKey & { invocationId: string },
  ): Promise<InvocationCheckpoint | undefined> {
    const { appName, userId, sessionId, invocationId } = request;
    const db = await this.database.open();
    return readTransaction(db, [Stores.checkpoints, Stores.longValues], async (tx) => {
      const record = await tx
        .objectStore(Stores.checkpoints)
        .get([appName, userId, sessionId, invocationId]);
      if (!record) return undefined;
      const { firstSeq, artifacts } = record;
      const { state } = await heldStateOf(tx, { appName, userId, sessionId }, record);
      return deepFreeze({ invocationId, firstSeq, state, artifacts });
    });
  }
}
