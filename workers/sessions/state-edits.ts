// The State panel's edits and History's "Edit state and re-run", as the worker does them:
// - each holds the session's lock, as a run does, so a session running (in this tab or another)
//   refuses the edit instead of having its state change under the run;
// - bad changes are refused before anything is written (a re-run rewinds nothing then);
// - sessions on ADK servers are refused: their state lives on the server.

import { checkStateChanges, effectiveChanges } from '../../src/core/state-edit.ts';
import { FORM_STATE_KEY } from '../../src/flows/flow.ts';
import {
  InvalidRequestError,
  InvocationNotFoundError,
  SessionNotFoundError,
  hasKeys,
  mergeScopes,
  splitDelta,
  type Event,
  type IndexedDbSessionService,
  type RunConfig,
  type Runner,
} from '../../src/index.ts';
import { isRemoteId } from '../remote/adk-servers.ts';
import { APP_NAME, USER_ID } from './sessions.ts';
import type { RuntimeBroadcast } from '../protocol.ts';
import type { SessionLocks } from '../runs/session-locks.ts';

type EventListener = (event: Event) => void;

/** What AppRuntime lends: its services, and its way of running a stream under the lock. */
export interface StateEditDeps {
  sessions: IndexedDbSessionService;
  locks: SessionLocks;
  broadcast: (message: RuntimeBroadcast) => void;
  runnerFor: (sessionId: string) => Promise<Runner>;
  /** AppRuns's `run`: a stream of events under the session's lock, with Stop. */
  run: (
    sessionId: string,
    onEvent: EventListener,
    start: (runner: Runner, runConfig: RunConfig) => Promise<AsyncGenerator<Event, void>>,
  ) => Promise<void>;
  /** The content of a turn's first event; InvocationNotFoundError for an unknown one. */
  /** A turn's first event (its user's message, with the start form's values if it had a form). */
  firstEvent: (sessionId: string, invocationId: string) => Promise<Event | undefined>;
}

export class AppStateEdits {
  constructor(private readonly deps: StateEditDeps) {}

  /** Appends the user's edit of the open session's state (`null` removes a key). */
  async editState(sessionId: string, changes: Record<string, unknown>): Promise<Event> {
    refuseRemote(sessionId, 'Editing state');
    const edit = await this.locked(sessionId, async () =>
      (await this.deps.runnerFor(sessionId)).editState({ userId: USER_ID, sessionId, changes }),
    );
    this.deps.broadcast({ type: 'session-changed', sessionId });
    return edit;
  }

  /**
   * The state a re-run of the turn `invocationId` starts from: its session keys as they were just
   * before it (its checkpoint), `app:` and `user:` keys as they are now (a rewind leaves them).
   */
  async stateBefore(sessionId: string, invocationId: string): Promise<Record<string, unknown>> {
    refuseRemote(sessionId, 'Editing state');
    const key = { appName: APP_NAME, userId: USER_ID, sessionId };
    const [checkpoint, session] = await Promise.all([
      this.deps.sessions.getInvocationCheckpoint({ ...key, invocationId }),
      this.deps.sessions.getSession({ ...key, numRecentEvents: 0 }),
    ]);
    if (!session) throw new SessionNotFoundError(sessionId);
    if (!checkpoint) throw new InvocationNotFoundError(invocationId, sessionId);
    const { app, user } = splitDelta(session.state);
    return mergeScopes(app, user, checkpoint.state);
  }

  /**
   * History's "Edit state and re-run": rewinds to before the turn, appends the edit (when it
   * changes anything), and runs the turn's message again; the old turn stays as a branch. All
   * under one hold of the lock, so no other run comes between.
   */
  async editStateAndRerun(
    sessionId: string,
    invocationId: string,
    changes: Record<string, unknown>,
    onEvent: EventListener,
  ): Promise<void> {
    refuseRemote(sessionId, 'Edit state and re-run');
    const asked = hasKeys(changes) ? checkStateChanges(changes) : {};
    const first = await this.deps.firstEvent(sessionId, invocationId);
    const message = first?.content;
    if (!message || message.role !== 'user' || message.parts.every((part) => part.functionResponse))
      throw new InvalidRequestError('Only a turn that began with your message can be re-run');
    await this.deps.run(sessionId, onEvent, async (runner, runConfig) => {
      await runner.rewindAsync({
        userId: USER_ID,
        sessionId,
        rewindBeforeInvocationId: invocationId,
      });
      const rewound = await this.deps.sessions.getSession({
        appName: APP_NAME,
        userId: USER_ID,
        sessionId,
        numRecentEvents: 0,
      });
      const delta = effectiveChanges(rewound?.state ?? {}, asked);
      if (hasKeys(delta))
        onEvent(await runner.editState({ userId: USER_ID, sessionId, changes: delta }));
      // A form turn re-runs with its form's values, as it was sent.
      const form = first?.actions.stateDelta[FORM_STATE_KEY];
      return runner.runAsync({
        userId: USER_ID,
        sessionId,
        newMessage: message,
        runConfig,
        ...(form !== undefined ? { stateDelta: { [FORM_STATE_KEY]: form } } : {}),
      });
    });
  }

  /** Runs `work` under the session's lock; a session busy says why its state cannot change now. */
  private async locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    try {
      return await this.deps.locks.withLock(sessionId, work);
    } catch (error) {
      // Still a SessionBusyError (the page knows it by name), said for an edit.
      if ((error as Error | null)?.name === 'SessionBusyError')
        (error as Error).message =
          'This session is running (here or in another tab): edit its state once the run ends.';
      throw error;
    }
  }
}

function refuseRemote(sessionId: string, what: string): void {
  if (isRemoteId(sessionId))
    throw new InvalidRequestError(
      `${what} works on sessions in this browser: the state of an ADK server's session lives on ` +
        'the server. Use "Copy to this browser" first.',
    );
}
