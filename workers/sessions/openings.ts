// Opening a session for the page: what it needs to draw one (read from the turn summary, never
// the whole log, issue 8; long state values as previews, issue 19), pages of the raw log for the
// event log, one state value whole, and the whole session for tests.

import {
  SessionNotFoundError,
  isUserArtifact,
  type BaseArtifactService,
  type BaseSessionService,
} from '../../src/index.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import type {
  LogPage,
  RunRecord,
  SessionSummary as StoreSessionSummary,
} from '../../src/store/session-service.ts';
import { ownValue, setOwn, type State } from '../../src/core/state.ts';
import { previewOf } from '../../src/core/value-preview.ts';
import { APP_NAME, USER_ID, summaryOf } from './sessions.ts';
import {
  LONG_STATE_CHARS,
  type ArtifactInfo,
  type LongState,
  type OpeningLimits,
  type SessionOpening,
  type SessionSnapshot,
} from '../protocol.ts';

/**
 * The most events an opening's active tail reaches back to hold the current turn and the paused
 * runs: past it, the Checkpoints panel and the approvals show what the tail holds.
 */
const MAX_TAIL = 5000;

export class AppOpenings {
  /** Over the app's IndexedDB services, or over the in-memory copy of a remote session. */
  constructor(
    private readonly sessions: BaseSessionService,
    private readonly artifacts: BaseArtifactService,
    private readonly store: Pick<IndexedDbAppStore, 'getSessionMeta'>,
  ) {}

  /**
   * The whole session, every event of its log: what tests check a run's log with. The page never
   * asks for it (it opens sessions with openSessionSummary, and pages through the log with
   * readLog); a session export reads the whole log on its own.
   */
  async whole(sessionId: string): Promise<SessionSnapshot> {
    const key = this.key(sessionId);
    const [session, meta, artifacts] = await Promise.all([
      this.sessions.getSession(key),
      this.store.getSessionMeta(APP_NAME, USER_ID, sessionId),
      this.artifactInfo(sessionId),
    ]);
    if (!session) throw new SessionNotFoundError(sessionId);
    return {
      summary: summaryOf(session, meta),
      state: { ...session.state },
      events: [...session.events],
      artifacts,
    };
  }

  /**
   * What the page needs to draw a session, read without reading its whole log: its cost grows
   * with `numActiveEvents` and `numTurns`, not with the log (issue 8). The active tail reaches
   * back further when it must (up to MAX_TAIL events) to hold the whole current turn (its flow
   * checkpoints) and every paused run from its first event (its pending approvals).
   */
  async opening(
    sessionId: string,
    { numActiveEvents = 50, numTurns = 50 }: OpeningLimits = {},
  ): Promise<SessionOpening> {
    const key = this.key(sessionId);
    const readSummary = (count: number) =>
      this.sessions.getSessionSummary({ ...key, numActiveEvents: count, numTurns });
    const [first, meta, artifacts, runs] = await Promise.all([
      readSummary(numActiveEvents),
      this.store.getSessionMeta(APP_NAME, USER_ID, sessionId),
      this.artifactInfo(sessionId),
      this.sessions.listRuns({ appName: APP_NAME, userId: USER_ID, sessionId }),
    ]);
    if (!first) throw new SessionNotFoundError(sessionId);
    let found = first;
    const reach = await this.tailReach(sessionId, found, runs);
    const tailFrom = found.activeTail[0]?.seq ?? 0;
    if (!found.activeComplete && reach < tailFrom && found.eventCount - reach <= MAX_TAIL) {
      // Never fewer active events than that between `reach` and the end: the tail gets there.
      found = (await readSummary(found.eventCount - reach)) ?? found;
    }
    const { session, ...opening } = found;
    const tailStart = await this.tailStart(sessionId, found);
    return {
      summary: summaryOf(session, meta),
      ...withLongValuesCut(session.state),
      ...opening,
      ...(tailStart ? { tailStart } : {}),
      artifacts,
    };
  }

  /** One value of the session's state, whole (`undefined`: no such key). */
  async stateValue(sessionId: string, key: string): Promise<unknown> {
    const found = await this.sessions.getSessionSummary({
      ...this.key(sessionId),
      numActiveEvents: 0,
      numTurns: 0,
    });
    if (!found) throw new SessionNotFoundError(sessionId);
    return ownValue(found.session.state, key);
  }

  /** A page of the raw log for the event log (markers included), oldest first. */
  async logPage(sessionId: string, fromSeq: number, limit: number): Promise<LogPage> {
    const page = await this.sessions.listEvents({ ...this.key(sessionId), fromSeq, limit });
    if (!page) throw new SessionNotFoundError(sessionId);
    return page;
  }

  /**
   * The position the active tail must reach back to: the first event of the current turn and of
   * every paused run of the session.
   */
  private async tailReach(
    sessionId: string,
    summary: StoreSessionSummary,
    runs: readonly RunRecord[],
  ): Promise<number> {
    const tip = summary.activePath.at(-1);
    const paused = await Promise.all(
      runs
        .filter((run) => run.status === 'paused')
        .map((run) =>
          this.sessions.getInvocationCheckpoint({
            ...this.key(sessionId),
            invocationId: run.invocationId,
          }),
        ),
    );
    return Math.min(
      tip?.firstSeq ?? summary.eventCount,
      ...paused.map((checkpoint) => checkpoint?.firstSeq ?? summary.eventCount),
    );
  }

  /** Where the first turn that begins in the active tail begins, and the state just before it. */
  private async tailStart(
    sessionId: string,
    summary: StoreSessionSummary,
  ): Promise<SessionOpening['tailStart']> {
    const seqs = new Set(summary.activeTail.map(({ seq }) => seq));
    const turn = summary.activePath.find((candidate) => seqs.has(candidate.firstSeq));
    if (!turn) return undefined;
    const checkpoint = await this.sessions.getInvocationCheckpoint({
      ...this.key(sessionId),
      invocationId: turn.invocationId,
    });
    return checkpoint && { seq: turn.firstSeq, ...withLongValuesCut(checkpoint.state) };
  }

  /** The session's artifacts and their versions. */
  async artifactInfo(sessionId: string): Promise<ArtifactInfo[]> {
    const key = this.key(sessionId);
    const files = await this.artifacts.listArtifactKeys(key);
    return Promise.all(
      files.map(async (filename) => ({
        filename,
        versions: await this.artifacts.listVersions({ ...key, filename }),
        scope: isUserArtifact(filename) ? ('user' as const) : ('session' as const),
      })),
    );
  }

  private key(sessionId: string) {
    return { appName: APP_NAME, userId: USER_ID, sessionId };
  }
}

/**
 * A state as an opening sends it: each value whose text is longer than LONG_STATE_CHARS left out
 * of `state` and previewed in `longState` instead. Each preview costs what it keeps, never the
 * value (src/core/value-preview.ts).
 */
export function withLongValuesCut(whole: State): {
  state: Record<string, unknown>;
  longState?: LongState;
} {
  const state: Record<string, unknown> = {};
  const longState: LongState = {};
  let cut = false;
  for (const [key, value] of Object.entries(whole)) {
    const preview = previewOf(value, { max: LONG_STATE_CHARS });
    if (preview.truncated) {
      setOwn(longState, key, preview);
      cut = true;
    } else setOwn(state, key, value);
  }
  return cut ? { state, longState } : { state };
}
