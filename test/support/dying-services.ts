// Services that stop writing at a chosen point, as a tab killed there would: the first `n` writes
// (of sessions and artifacts together) go through, and every later one throws, so that what is
// stored is exactly what a kill right after the nth write leaves. Reads go on working, so the
// dead runner winds down instead of hanging; nothing it tries to write lands.

import {
  BaseArtifactService,
  BaseSessionService,
  type AppendEventRequest,
  type ArtifactKey,
  type CreateSessionRequest,
  type Event,
  type ForkSessionRequest,
  type GetSessionRequest,
  type GetSessionSummaryRequest,
  type GetSwitchMarkerRequest,
  type ImportSessionRequest,
  type InvocationCheckpoint,
  type ListArtifactKeysRequest,
  type ListEventsRequest,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type LoadArtifactRequest,
  type LogPage,
  type Part,
  type RewindSessionRequest,
  type RunKey,
  type RunRecord,
  type SaveArtifactRequest,
  type Session,
  type SessionKey,
  type SessionSummary,
} from '../../src/index.ts';
import type { Services } from './service-kinds.ts';

/** What a write of a dead process throws (a name no code treats as a storage failure). */
export class KilledError extends Error {
  override name = 'KilledError' as const;
  constructor() {
    super('The process was killed');
  }
}

/** Decides, write by write, whether it goes through. */
export interface WriteFault {
  /** Called before each write; throws to fail it. */
  beforeWrite(): void;
}

/** Lets `n` writes through, then fails every later one: a kill right after the nth write. */
export class KillSwitch implements WriteFault {
  private left = Infinity;
  /** Whether a write was refused: the run did reach the point of the kill. */
  killed = false;
  /** Writes let through since `killAfter`. */
  writes = 0;

  killAfter(n: number): void {
    this.left = n;
    this.killed = false;
    this.writes = 0;
  }

  beforeWrite(): void {
    if (this.left <= 0) {
      this.killed = true;
      throw new KilledError();
    }
    this.left--;
    this.writes++;
  }
}

class FaultySessionService extends BaseSessionService {
  constructor(
    private readonly inner: BaseSessionService,
    private readonly fault: WriteFault,
  ) {
    super();
  }

  private async write<T>(work: () => Promise<T>): Promise<T> {
    this.fault.beforeWrite();
    return work();
  }

  createSession(request: CreateSessionRequest): Promise<Session> {
    return this.write(() => this.inner.createSession(request));
  }
  getSession(request: GetSessionRequest): Promise<Session | undefined> {
    return this.inner.getSession(request);
  }
  listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse> {
    return this.inner.listSessions(request);
  }
  deleteSession(request: SessionKey): Promise<void> {
    return this.write(() => this.inner.deleteSession(request));
  }
  appendEvent(request: AppendEventRequest): Promise<Event> {
    if (request.event.partial) return this.inner.appendEvent(request);
    return this.write(() => this.inner.appendEvent(request));
  }
  rewindSession(request: RewindSessionRequest): Promise<Event> {
    return this.write(() => this.inner.rewindSession(request));
  }
  forkSession(request: ForkSessionRequest): Promise<Session> {
    return this.write(() => this.inner.forkSession(request));
  }
  putRun(run: RunRecord): Promise<void> {
    return this.write(() => this.inner.putRun(run));
  }
  deleteRun(key: RunKey): Promise<void> {
    return this.write(() => this.inner.deleteRun(key));
  }
  listRuns(request: { appName: string; userId: string; sessionId?: string }): Promise<RunRecord[]> {
    return this.inner.listRuns(request);
  }
  importSession(request: ImportSessionRequest): Promise<Session> {
    return this.write(() => this.inner.importSession(request));
  }
  getInvocationCheckpoint(
    request: SessionKey & { invocationId: string },
  ): Promise<InvocationCheckpoint | undefined> {
    return this.inner.getInvocationCheckpoint(request);
  }
  getSessionSummary(request: GetSessionSummaryRequest): Promise<SessionSummary | undefined> {
    return this.inner.getSessionSummary(request);
  }
  getSwitchMarker(request: GetSwitchMarkerRequest): Promise<string> {
    return this.inner.getSwitchMarker(request);
  }
  listEvents(request: ListEventsRequest): Promise<LogPage | undefined> {
    return this.inner.listEvents(request);
  }
}

class FaultyArtifactService extends BaseArtifactService {
  constructor(
    private readonly inner: BaseArtifactService,
    private readonly fault: WriteFault,
  ) {
    super();
  }

  saveArtifact(request: SaveArtifactRequest): Promise<number> {
    this.fault.beforeWrite();
    return this.inner.saveArtifact(request);
  }
  loadArtifact(request: LoadArtifactRequest): Promise<Part | undefined> {
    return this.inner.loadArtifact(request);
  }
  listArtifactKeys(request: ListArtifactKeysRequest): Promise<string[]> {
    return this.inner.listArtifactKeys(request);
  }
  listVersions(request: ArtifactKey): Promise<number[]> {
    return this.inner.listVersions(request);
  }
  deleteArtifact(request: ArtifactKey): Promise<void> {
    this.fault.beforeWrite();
    return this.inner.deleteArtifact(request);
  }
}

/**
 * `services` with every write (of sessions and artifacts) first asking `fault`. Rewinds and forks
 * that restore artifacts need the real services (they write both in one transaction).
 */
export function withWriteFault(
  services: Services,
  fault: WriteFault,
): Pick<Services, 'sessionService' | 'artifactService'> {
  return {
    sessionService: new FaultySessionService(services.sessionService, fault),
    artifactService: new FaultyArtifactService(services.artifactService, fault),
  };
}
