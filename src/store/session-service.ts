// The session service contract, shared by the in-memory and IndexedDB implementations.

import type { Part } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { RewindTo } from '../core/rewind.ts';
import type { BaseArtifactService } from './artifact-service.ts';

export interface Session {
  readonly id: string;
  readonly appName: string;
  readonly userId: string;
  /** Session, `app:` and `user:` keys merged (app and user keys keep their prefix). */
  readonly state: Readonly<Record<string, unknown>>;
  /** The raw, append-only log (rewind markers included), oldest first. */
  readonly events: readonly Event[];
  /** Milliseconds since the epoch. */
  readonly lastUpdateTime: number;
}

export interface SessionKey {
  appName: string;
  userId: string;
  sessionId: string;
}

export interface CreateSessionRequest {
  appName: string;
  userId: string;
  sessionId?: string;
  /** Initial state; recorded as a first, synthetic event so the log alone explains every value. */
  state?: Record<string, unknown>;
}

export interface GetSessionConfig {
  /** Only the last N events of the log (0: none). The older ones are not read. */
  numRecentEvents?: number;
  /** Only events with a timestamp at or after this one (milliseconds). */
  afterTimestamp?: number;
}

export interface GetSessionRequest extends SessionKey {
  config?: GetSessionConfig;
  /** Shorthand for `config.numRecentEvents`. */
  numRecentEvents?: number;
}

export interface ListSessionsRequest {
  appName: string;
  userId: string;
}

export interface ListSessionsResponse {
  /** Most recently updated first; each with its merged state and no events. */
  sessions: Session[];
}

export interface AppendEventRequest {
  /** Identifies the session; it is not modified (sessions are read-only snapshots). */
  session: Pick<Session, 'id' | 'appName' | 'userId'>;
  event: Event;
  /**
   * The record of the run this event starts or resumes (a user's message, an answer to a
   * paused call), written in the same atomic write as the event: a crash never leaves the
   * event without the record that offers to resume its run.
   */
  run?: RunRecord;
  /**
   * Files to keep as session artifacts in the same atomic write (a user's attachments): each
   * gets the file's next version, named in the stored event's `artifactDelta`. The artifact
   * service must be of the same kind as the session service (for IndexedDB, on its database).
   */
  artifacts?: AppendedArtifacts;
}

export interface AppendedArtifacts {
  files: readonly { filename: string; artifact: Part }[];
  artifactService: BaseArtifactService;
}

/** What a session looked like just before an invocation's first event was appended. */
export interface InvocationCheckpoint {
  invocationId: string;
  /** Position of the invocation's first event in the raw log. */
  firstSeq: number;
  /** Session-scoped state (no `app:`, `user:` or `temp:` keys). */
  state: Readonly<Record<string, unknown>>;
  /** Session-scoped artifact file name → its latest version, as recorded by the log. */
  artifacts: Readonly<Record<string, number>>;
}

export interface GetSessionSummaryRequest extends SessionKey {
  /** How many of the last active events to read (default 50). */
  numActiveEvents?: number;
  /** How many of the last turns of the active path to describe (default 50). */
  numTurns?: number;
}

/** An event of the log with its position in it. */
export interface LoggedEvent {
  seq: number;
  event: Event;
}

/** A turn as the summary of a session describes it (see core/branch-tree for what a turn is). */
export interface TurnSummary {
  invocationId: string;
  /** Undefined for a root turn. */
  parentId: string | undefined;
  text: string;
  /** Position of its first event in the raw log. */
  firstSeq: number;
  /** Started by the user's text message (it can be edited and run again). */
  editable: boolean;
}

/** A turn of the active path with the turns that hang under it (its branches, if several). */
export interface ActiveTurnSummary extends TurnSummary {
  /** How many turns hang under it, the active one included. */
  childCount: number;
  /**
   * When `childCount` > 1, or for the last turn of the path (the tip) when it has any: every turn
   * hanging under it, in log order.
   */
  children?: TurnSummary[];
}

/**
 * What opening a session needs, read without reading its whole log: its state, the end of its
 * active conversation and the end of its active path of turns with the branches leaving it.
 */
export interface SessionSummary {
  /** The session, with no events. */
  session: Session;
  /** Number of events in the raw log, markers included. */
  eventCount: number;
  /** The last active events (up to `numActiveEvents`), oldest first. */
  activeTail: LoggedEvent[];
  /** Whether `activeTail` holds every active event. */
  activeComplete: boolean;
  /** The last turns of the active path (up to `numTurns`), oldest first. */
  activePath: ActiveTurnSummary[];
  /** Whether `activePath` starts at a root turn. */
  pathComplete: boolean;
  /** When `pathComplete`: every root turn, in log order (more than one after a rewind to the start). */
  roots?: TurnSummary[];
}

export interface GetSwitchMarkerRequest extends SessionKey {
  /** A turn off the active path: the branch to bring back is the one it belongs to. */
  invocationId: string;
}

export interface ListEventsRequest extends SessionKey {
  /** Position in the raw log of the first event to read (default 0). */
  fromSeq?: number;
  /** How many events at most (default 100). */
  limit?: number;
}

/** An event of a page of the raw log, as the event log shows it. */
export interface LogEntry extends LoggedEvent {
  /** In the active conversation now (a marker never is). */
  active: boolean;
  /**
   * For a rewind marker whose target lies before it: the event it went back to (the first
   * event of the invocation it rewound before, or the event it rewound to just after).
   */
  target?: Event;
}

/** A page of the raw log. */
export interface LogPage {
  /** Number of events in the raw log, markers included. */
  eventCount: number;
  /** The events from `fromSeq` on (up to `limit`), oldest first. */
  entries: LogEntry[];
}

/**
 * A rewind names exactly one target: `rewindBeforeInvocationId` (the session goes back to just
 * before that invocation's first event) or `rewindAfterEventId` (to just after that event, which
 * stays active: a checkpoint inside an invocation, which can then be resumed from there).
 */
export type RewindSessionRequest = SessionKey &
  RewindTo & {
    /**
     * Where the session's artifacts live: changed ones are restored in the same atomic write.
     * It must be of the same kind (and, for IndexedDB, on the same database) as the session
     * service.
     */
    artifactService?: BaseArtifactService | undefined;
  };

export interface ForkSessionRequest extends SessionKey {
  /** The turn to fork at: the new session holds the conversation up to and including it. */
  atInvocationId: string;
  newSessionId?: string;
  /** Where the session's artifacts live: they are copied in the same atomic write. */
  artifactService?: BaseArtifactService | undefined;
}

/**
 * A run in flight: written when an invocation starts or resumes, kept up to date while it runs
 * (`heartbeatAt`), and removed when it finishes. What is left after a crash or a reload is what
 * can be resumed.
 */
export interface RunRecord {
  appName: string;
  userId: string;
  sessionId: string;
  invocationId: string;
  /** The agent the invocation started at. */
  agentName: string;
  /**
   * `running` (if its runner is gone, it was cut off), `paused` (waiting for a long-running tool
   * or a human), `interrupted` (cancelled, or its consumer stopped reading), `failed`.
   */
  status: RunStatus;
  startedAt: number;
  updatedAt: number;
  /** Refreshed while the run is alive. */
  heartbeatAt: number;
  /** The runner instance running it. */
  ownerId: string;
  /** For a paused run: the call ids it waits for. */
  pendingCallIds?: string[];
  /** For a failed run. */
  error?: { name: string; message: string };
}

export type RunStatus = 'running' | 'paused' | 'interrupted' | 'failed';

export interface RunKey extends SessionKey {
  invocationId: string;
}

export interface ImportSessionRequest {
  appName: string;
  userId: string;
  sessionId?: string;
  /** A whole log (see core/session-file), replayed in order; `app:`/`user:` deltas not applied. */
  events: readonly Event[];
  /**
   * Where the session's artifacts go: the versions the events carry (see core/artifact-payloads)
   * and those its rewind markers restore are written in the same atomic write. It must be of the
   * same kind (and, for IndexedDB, on the same database) as the session service.
   */
  artifactService?: BaseArtifactService | undefined;
  /**
   * When the session last changed where it comes from (ms; a restore from a backup keeps it), so
   * that it is listed by that time; by default, now. Its events' own timestamps still count:
   * the session's `lastUpdateTime` is never before its last event's.
   */
  lastUpdateTime?: number | undefined;
}

export abstract class BaseSessionService {
  abstract createSession(request: CreateSessionRequest): Promise<Session>;

  /** The session, or `undefined` when there is none with that key. */
  abstract getSession(request: GetSessionRequest): Promise<Session | undefined>;

  abstract listSessions(request: ListSessionsRequest): Promise<ListSessionsResponse>;

  /** Removes the session, its log, checkpoints and runs. Unknown session → SessionNotFoundError. */
  abstract deleteSession(request: SessionKey): Promise<void>;

  /**
   * Appends an event to the log and applies its state delta, in one atomic write, and returns
   * the event as stored (read-only; `temp:` keys removed). A partial event is returned as it is,
   * unstored. With `run`, the run's record is put in the same write. Unknown session →
   * SessionNotFoundError; an event id already in the session → DuplicateEventError (and then
   * neither is written).
   */
  abstract appendEvent(request: AppendEventRequest): Promise<Event>;

  /**
   * Puts the session back as it was just before the first event of an invocation, or just after
   * an event, by appending one marker event (see core/rewind and core/active-events). The marker,
   * its state changes and the restored artifact versions are written atomically; `app:` and
   * `user:` state and `user:` artifacts are not touched. Returns the stored marker.
   * Errors, with nothing written: neither or both targets → InvalidRequestError; unknown session
   * → SessionNotFoundError; unknown invocation → InvocationNotFoundError; unknown event →
   * EventNotFoundError; an event that is a marker, that a rewind hid, or that is the last active
   * one → InvalidRequestError.
   */
  abstract rewindSession(request: RewindSessionRequest): Promise<Event>;

  /**
   * A new session holding the conversation as it stood right after a turn: its active events,
   * its session state and its session artifacts (every version up to the one then current), all
   * written atomically. `app:` and `user:` state is shared already and is not applied again.
   */
  abstract forkSession(request: ForkSessionRequest): Promise<Session>;

  /** Creates or replaces the record of a run in flight. */
  abstract putRun(run: RunRecord): Promise<void>;

  /** Removes the record of a run (it finished). */
  abstract deleteRun(key: RunKey): Promise<void>;

  /** The records of a user's runs in flight, of one session or of all. */
  abstract listRuns(request: {
    appName: string;
    userId: string;
    sessionId?: string;
  }): Promise<RunRecord[]>;

  /**
   * A new session made of a log from elsewhere (an exported file), written atomically with its
   * artifacts: each event is appended in order (checkpoints taken as they would have been), so the
   * session can be rewound and resumed like any other. A rewind marker's deltas are not taken from
   * the log but worked out again from the events before it, as rewindSession works them out (see
   * session-import.ts). `app:` and `user:` deltas are kept in the events but not applied: they
   * belonged to the app and user the file came from. A log that cannot be replayed (a marker whose
   * target is not before it, versions that go down, an event that cannot be stored) is an
   * InvalidSessionFileError naming the event; a session id taken → SessionExistsError. Nothing is
   * written then.
   */
  abstract importSession(request: ImportSessionRequest): Promise<Session>;

  /**
   * The state checkpoint of an invocation of the session (taken when its first event was
   * appended), or `undefined` if the session has no such invocation.
   */
  abstract getInvocationCheckpoint(
    request: SessionKey & { invocationId: string },
  ): Promise<InvocationCheckpoint | undefined>;

  /**
   * The summary of a session that opening it needs (its state, the end of its active
   * conversation, the end of its active path with the branches leaving it), or `undefined` when
   * there is no such session. Its cost grows with what it returns, not with the log: it agrees
   * with `activeEvents` and `branchTree` of the whole log without reading it.
   */
  abstract getSessionSummary(
    request: GetSessionSummaryRequest,
  ): Promise<SessionSummary | undefined>;

  /**
   * The invocation id of the marker to rewind before to bring back the branch of a turn off the
   * active path (the last marker that left a turn of that branch, as core/branch-tree finds it):
   * what "switch to this branch" rewinds before. The summary leaves it out, as its cost grows
   * with the number of rewinds. Unknown session → SessionNotFoundError; unknown invocation →
   * InvocationNotFoundError; an invocation that is not a turn, or a turn on the active path →
   * InvalidRequestError.
   */
  abstract getSwitchMarker(request: GetSwitchMarkerRequest): Promise<string>;

  /**
   * A page of the raw log, each event said to be active or not and each marker with what it went
   * back to, or `undefined` when there is no such session. Its cost grows with the page and the
   * number of rewinds, not with the log.
   */
  abstract listEvents(request: ListEventsRequest): Promise<LogPage | undefined>;
}

export function numRecentEventsOf(request: GetSessionRequest): number | undefined {
  return request.config?.numRecentEvents ?? request.numRecentEvents;
}
