// Going back in a session, as the worker does it: a rewind before a turn, a switch to another
// branch, a rewind to a flow's checkpoint, and a fork into a new session.
// - each rewind holds the session's lock, as a run does, and finds its target under it, so what
//   it found still holds when it writes;
// - each tells other tabs what changed;
// - each goes through the runner's `rewindAsync`, which forgets what the rewound events added to
//   memory (the app's runners have one; test/unit/workers/memory.test.ts);
// - sessions on ADK servers are refused (their rewinds are AppRemote's).

import type { Event, IndexedDbSessionService, Runner } from '../../src/index.ts';
import type { IndexedDbAppStore, SessionMeta } from '../../src/store/app-store.ts';
import { localOnly } from '../remote/adk-servers.ts';
import { rewindToCheckpoint } from '../flows/flows.ts';
import { APP_NAME, USER_ID, newMeta, summaryOf } from '../sessions/sessions.ts';
import type { RuntimeBroadcast, SessionSummary } from '../protocol.ts';
import type { SessionLocks } from './session-locks.ts';

/** What AppRuntime lends: its services, and its ways of reading a session's record. */
export interface RewindDeps {
  sessions: IndexedDbSessionService;
  store: IndexedDbAppStore;
  locks: SessionLocks;
  broadcast: (message: RuntimeBroadcast) => void;
  runnerFor: (sessionId: string) => Promise<Runner>;
  meta: (sessionId: string) => Promise<SessionMeta>;
}

export class AppRewinds {
  constructor(private readonly deps: RewindDeps) {}

  rewind(sessionId: string, rewindBeforeInvocationId: string): Promise<Event> {
    localOnly(sessionId, 'This rewind');
    return this.rewindBefore(sessionId, async () => rewindBeforeInvocationId);
  }

  /**
   * Brings back the branch of a turn off the active path (History's "Switch to this branch"):
   * rewinds before the last marker that left it, found under the lock, so that what it found
   * still holds when it rewinds.
   */
  switchToBranch(sessionId: string, invocationId: string): Promise<Event> {
    localOnly(sessionId, 'Switching branches');
    return this.rewindBefore(sessionId, () =>
      this.deps.sessions.getSwitchMarker({
        appName: APP_NAME,
        userId: USER_ID,
        sessionId,
        invocationId,
      }),
    );
  }

  /** Rewinds a flow session to before a node ran (after its checkpoint); it can then resume. */
  async rewindToCheckpoint(sessionId: string, checkpointEventId: string): Promise<Event> {
    localOnly(sessionId, 'Rewinding to a checkpoint');
    const marker = await this.deps.locks.withLock(sessionId, async () =>
      rewindToCheckpoint(
        await this.deps.runnerFor(sessionId),
        USER_ID,
        sessionId,
        checkpointEventId,
      ),
    );
    this.deps.broadcast({ type: 'session-changed', sessionId });
    this.deps.broadcast({ type: 'memory-changed' });
    return marker;
  }

  /** A new session with the conversation as it stood right after a turn (History's Fork). */
  async fork(sessionId: string, atInvocationId: string): Promise<SessionSummary> {
    localOnly(sessionId, 'Fork');
    const runner = await this.deps.runnerFor(sessionId);
    const meta = await this.deps.meta(sessionId);
    const fork = await runner.forkSessionAsync({ userId: USER_ID, sessionId, atInvocationId });
    const forkMeta = newMeta(fork.id, `${meta.title} (fork)`, meta.agentId);
    await this.deps.store.putSessionMeta(forkMeta);
    this.deps.broadcast({ type: 'sessions-changed' });
    return summaryOf(fork, forkMeta);
  }

  /** Rewinds before the invocation `target` finds, under the session's lock, and tells tabs. */
  private async rewindBefore(sessionId: string, target: () => Promise<string>): Promise<Event> {
    const marker = await this.deps.locks.withLock(sessionId, async () => {
      const runner = await this.deps.runnerFor(sessionId);
      const rewindBeforeInvocationId = await target();
      return runner.rewindAsync({ userId: USER_ID, sessionId, rewindBeforeInvocationId });
    });
    this.deps.broadcast({ type: 'session-changed', sessionId });
    // Its runner's rewindAsync forgot what the rewound events added to memory.
    this.deps.broadcast({ type: 'memory-changed' });
    return marker;
  }
}
