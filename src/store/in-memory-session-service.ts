// Sessions in memory: for tests, demos and InMemoryRunner. Every write happens synchronously
// inside one method call, which makes it as atomic as an IndexedDB transaction.

import { conversationThrough } from '../core/active-events.ts';
import {
  DuplicateEventError,
  InvocationNotFoundError,
  SessionExistsError,
  SessionNotFoundError,
} from '../core/errors.ts';
import { rewindTargetOf, type Event, type RewindTarget } from '../core/event.ts';
import { newSessionId } from '../core/ids.ts';
import { LogPrefix } from '../core/log-prefix.ts';
import {
  createRewindMarker,
  planRewind,
  requestedRewindTarget,
  type SessionSnapshot,
} from '../core/rewind.ts';
import { applyDelta, setOwn } from '../core/state.ts';
import {
  InMemoryArtifactService,
  atomically,
  compatibleArtifacts,
} from './in-memory-artifact-service.ts';
import { snapshotToRestore } from './rewind-point.ts';
import { TurnLog, memoryRewindReader } from './turn-log.ts';
import { readSessionSummary, switchMarker, tipRestoredBy } from './turn-summary.ts';
import { readLogPage } from './log-page.ts';
import { importedRecord, planImport, versionCount } from './session-import.ts';
import {
  artifactsNotAtomic,
  appendToRecord,
  deepFreeze,
  checkpointBefore,
  initialStateEvent,
  invocationTurn,
  mayStartInvocation,
  newSessionRecord,
  NO_TURN,
  withTip,
  type RestoredTip,
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

interface StoredSession {
  record: SessionRecord;
  /**
   * The log. Only `append` changes it, and only at its end: the sessions handed out are
   * prefixes of it (see core/log-prefix.ts), which a copy would make O(log) per read.
   */
  events: Event[];
  /** Event id → its position in `events`. */
  eventSeqs: Map<string, number>;
  checkpoints: Map<string, InvocationCheckpoint>;
  /** Each invocation's turn bookkeeping (see turn-summary.ts). */
  turns: TurnLog;
}

/**
 * The map key of a tuple of names: each name after its length, so that two tuples never share a
 * key (names may hold any character). A template, not JSON: it is built several times a turn.
 */
function keyOf(...parts: string[]): string {
  let key = '';
  for (const part of parts) key += `${part.length}:${part}`;
  return key;
}

const runKeyOf = (run: RunKey) => keyOf(run.appName, run.userId, run.sessionId, run.invocationId);

function emptySession(appName: string, userId: string, id: string): StoredSession {
  return {
    record: newSessionRecord(appName, userId, id, Date.now()),
    events: [],
    eventSeqs: new Map(),
    checkpoints: new Map(),
    turns: new TurnLog(),
  };
}

export class InMemorySessionService extends BaseSessionService {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly appStates = new Map<string, Record<string, unknown>>();
  private readonly userStates = new Map<string, Record<string, unknown>>();
  private readonly runs = new Map<string, RunRecord>();

  override async createSession(request: CreateSessionRequest): Promise<Session> {
    const { appName, userId } = request;
    const id = request.sessionId ?? newSessionId();
    const key = keyOf(appName, userId, id);
    if (this.sessions.has(key)) throw new SessionExistsError(id);
    const stored = emptySession(appName, userId, id);
    const initial = initialStateEvent(request.state);
    if (initial) this.append(stored, toStoredEvent(initial));
    this.sessions.set(key, stored);
    return this.toSession(stored, LogPrefix.of(stored.events));
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.find(request);
    if (!stored) return undefined;
    const events = selectEvents(
      stored.events,
      numRecentEventsOf(request),
      request.config?.afterTimestamp,
    );
    return this.toSession(stored, events === stored.events ? LogPrefix.of(events) : events);
  }

  override async listSessions({
    appName,
    userId,
  }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const sessions: Session[] = [];
    for (const stored of this.sessions.values()) {
      if (stored.record.appName === appName && stored.record.userId === userId) {
        sessions.push(this.toSession(stored, []));
      }
    }
    sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
    return { sessions };
  }

  override async deleteSession(request: SessionKey): Promise<void> {
    const key = keyOf(request.appName, request.userId, request.sessionId);
    if (!this.sessions.delete(key)) throw new SessionNotFoundError(request.sessionId);
    for (const [runKey, run] of this.runs) {
      if (
        run.appName === request.appName &&
        run.userId === request.userId &&
        run.sessionId === request.sessionId
      ) {
        this.runs.delete(runKey);
      }
    }
  }

  override async appendEvent({
    session,
    event,
    run,
    artifacts,
  }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    if (artifacts && !(artifacts.artifactService instanceof InMemoryArtifactService))
      throw artifactsNotAtomic();
    // Copied before anything is written: a record that cannot be copied writes nothing.
    const runRecord = run && deepFreeze(structuredClone(run));
    const stored = this.find({
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
    });
    if (!stored) throw new SessionNotFoundError(session.id);
    const target = rewindTargetOf(event);
    const restored =
      target && (await tipRestoredBy(stored.turns.reader(stored), target, event.invocationId));
    if (stored.eventSeqs.has(event.id)) throw new DuplicateEventError(event.id);
    if (!artifacts) {
      const storedEvent = toStoredEvent(event);
      // The event and its run's record in one synchronous step: both or neither.
      this.append(stored, storedEvent, { restored });
      if (runRecord) this.runs.set(runKeyOf(runRecord), runRecord);
      return storedEvent;
    }
    // With its files: their versions, the event naming them and the run's record, all or none.
    const files = artifacts.artifactService as InMemoryArtifactService;
    return files.atomically(() => {
      const delta: Record<string, number> = { ...event.actions.artifactDelta };
      for (const { filename, artifact } of artifacts.files) {
        const key = { appName: session.appName, userId: session.userId, sessionId: session.id };
        setOwn(delta, filename, files.savePart({ ...key, filename, artifact }));
      }
      const storedEvent = toStoredEvent({
        ...event,
        actions: { ...event.actions, artifactDelta: delta },
      });
      this.append(stored, storedEvent, { restored });
      if (runRecord) this.runs.set(runKeyOf(runRecord), runRecord);
      return storedEvent;
    });
  }

  override async rewindSession(request: RewindSessionRequest): Promise<Event> {
    const target = requestedRewindTarget(request);
    for (;;) {
      const stored = this.find(request);
      if (!stored) throw new SessionNotFoundError(request.sessionId);
      const reader = memoryRewindReader(stored);
      const restored = await snapshotToRestore(reader, target, request.sessionId);
      const tip = await tipRestoredBy(stored.turns.reader(stored), target, '');
      // Those reads took turns of their own: if another call changed the session meanwhile,
      // read again, so that what they checked still holds when the marker is written.
      if (stored === this.find(request) && reader.length === stored.events.length) {
        return this.writeRewind(stored, target, restored, tip, request);
      }
    }
  }

  override async forkSession(request: ForkSessionRequest): Promise<Session> {
    const source = this.find(request);
    if (!source) throw new SessionNotFoundError(request.sessionId);
    const events = conversationThrough(source.events, request.atInvocationId);
    if (!events) throw new InvocationNotFoundError(request.atInvocationId, request.sessionId);
    const { appName, userId } = request;
    const id = request.newSessionId ?? newSessionId();
    const key = keyOf(appName, userId, id);
    if (this.sessions.has(key)) throw new SessionExistsError(id);
    const fork = emptySession(appName, userId, id);
    for (const event of events) this.append(fork, event, { applyShared: false });
    const heads = fork.record.artifacts;
    const artifacts = compatibleArtifacts(request.artifactService, Object.keys(heads).length > 0);
    atomically(artifacts, () => {
      artifacts?.copyVersions({ appName, userId, sessionId: request.sessionId }, id, heads);
      this.sessions.set(key, fork);
    });
    return this.toSession(fork, LogPrefix.of(fork.events));
  }

  override async putRun(run: RunRecord): Promise<void> {
    this.runs.set(runKeyOf(run), deepFreeze(structuredClone(run)));
  }

  override async deleteRun(key: RunKey): Promise<void> {
    this.runs.delete(runKeyOf(key));
  }

  override async listRuns(request: {
    appName: string;
    userId: string;
    sessionId?: string;
  }): Promise<RunRecord[]> {
    return [...this.runs.values()].filter(
      (run) =>
        run.appName === request.appName &&
        run.userId === request.userId &&
        (request.sessionId === undefined || run.sessionId === request.sessionId),
    );
  }

  override async importSession(request: ImportSessionRequest): Promise<Session> {
    const { appName, userId, artifactService } = request;
    const id = request.sessionId ?? newSessionId();
    const key = keyOf(appName, userId, id);
    if (this.sessions.has(key)) throw new SessionExistsError(id);
    const plan = await planImport(request.events, { restoresArtifacts: !!artifactService });
    const artifacts = compatibleArtifacts(artifactService, versionCount(plan.artifacts) > 0);
    const imported = emptySession(appName, userId, id);
    imported.record = importedRecord(imported.record, request.lastUpdateTime);
    for (const event of plan.events) {
      const target = rewindTargetOf(event);
      const restored =
        target &&
        (await tipRestoredBy(imported.turns.reader(imported), target, event.invocationId));
      this.append(imported, event, { applyShared: false, restored });
    }
    if (this.sessions.has(key)) throw new SessionExistsError(id);
    atomically(artifacts, () => {
      artifacts?.importVersions({ appName, userId, sessionId: id }, plan.artifacts);
      this.sessions.set(key, imported);
    });
    return this.toSession(imported, LogPrefix.of(imported.events));
  }

  override async getInvocationCheckpoint(
    request: SessionKey & { invocationId: string },
  ): Promise<InvocationCheckpoint | undefined> {
    return this.find(request)?.checkpoints.get(request.invocationId);
  }

  override async getSessionSummary(
    request: GetSessionSummaryRequest,
  ): Promise<SessionSummaryView | undefined> {
    const stored = this.find(request);
    if (!stored) return undefined;
    const { record } = stored;
    const session = this.toSession(stored, []);
    const summary = readSessionSummary(
      stored.turns.reader(stored),
      session,
      record.tip ?? NO_TURN,
      request,
    );
    return summary;
  }

  override async getSwitchMarker(request: GetSwitchMarkerRequest): Promise<string> {
    const stored = this.find(request);
    if (!stored) throw new SessionNotFoundError(request.sessionId);
    return switchMarker(
      stored.turns.reader(stored),
      stored.record.tip ?? NO_TURN,
      request.invocationId,
      request.sessionId,
    );
  }

  override async listEvents(request: ListEventsRequest): Promise<LogPage | undefined> {
    const stored = this.find(request);
    if (!stored) return undefined;
    return readLogPage(stored.turns.reader(stored), request.fromSeq ?? 0, request.limit ?? 100);
  }

  /** Appends a rewind's marker and restores its artifacts, synchronously: all or nothing. */
  private writeRewind(
    stored: StoredSession,
    target: RewindTarget,
    restored: SessionSnapshot,
    tip: RestoredTip,
    { appName, userId, sessionId, artifactService }: RewindSessionRequest,
  ): Event {
    const plan = planRewind(stored.record, restored);
    const artifacts = compatibleArtifacts(artifactService, plan.artifacts.length > 0);
    return atomically(artifacts, () => {
      const artifactDelta =
        artifacts?.restoreVersions({ appName, userId, sessionId }, plan.artifacts) ?? {};
      const marker = toStoredEvent(createRewindMarker(target, plan.stateDelta, artifactDelta));
      this.append(stored, marker, { restored: tip });
      return marker;
    });
  }

  private find({ appName, userId, sessionId }: SessionKey): StoredSession | undefined {
    return this.sessions.get(keyOf(appName, userId, sessionId));
  }

  private append(
    stored: StoredSession,
    event: Event,
    { applyShared = true, restored = undefined as RestoredTip } = {},
  ): void {
    const { record } = stored;
    const starts =
      mayStartInvocation(record, event.invocationId) && !stored.checkpoints.has(event.invocationId);
    if (starts) {
      stored.checkpoints.set(event.invocationId, checkpointBefore(record, event.invocationId));
      const turn = invocationTurn(record, event, restored);
      stored.turns.add(event.invocationId, record.eventCount, turn);
    }
    const outcome = appendToRecord(record, event);
    if (applyShared) {
      const appKey = keyOf(record.appName);
      const userKey = keyOf(record.appName, record.userId);
      this.appStates.set(appKey, applyDelta(this.appStates.get(appKey) ?? {}, outcome.deltas.app));
      this.userStates.set(
        userKey,
        applyDelta(this.userStates.get(userKey) ?? {}, outcome.deltas.user),
      );
    }
    stored.record = withTip(outcome.record, event, starts, restored);
    stored.eventSeqs.set(event.id, stored.events.length);
    stored.events.push(event);
  }

  private toSession(stored: StoredSession, events: readonly Event[] | LogPrefix): Session {
    const { appName, userId } = stored.record;
    return toSession(
      stored.record,
      this.appStates.get(keyOf(appName)) ?? {},
      this.userStates.get(keyOf(appName, userId)) ?? {},
      events,
    );
  }
}
