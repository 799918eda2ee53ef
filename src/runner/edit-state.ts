// Editing a session's state by hand: the change goes into the log as a state edit (an event of
// the user's, in an invocation of its own: see core/state-edit.ts), so it is a turn like any
// other. Rewinding to before it takes its session keys back; `app:` and `user:` keys are shared
// with other sessions and are not rewound (as in ADK). The next model call reads the state from
// the session, so it sees the edit.

import { SessionNotFoundError, InvalidRequestError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { checkStateChanges, createStateEditEvent, effectiveChanges } from '../core/state-edit.ts';
import { hasKeys } from '../core/state.ts';
import type { BaseSessionService } from '../store/session-service.ts';

export interface EditStateRequest {
  userId: string;
  sessionId: string;
  /** Key → its new value (any JSON value); `null` removes the key. Any string is a key. */
  changes: Readonly<Record<string, unknown>>;
}

/**
 * Appends the user's edit of a session's state and returns the stored event. Changes that
 * change nothing (a key set to the value it has, a missing key removed) are left out.
 * Errors, with nothing written: unknown session → SessionNotFoundError; no change, an empty or
 * `temp:` key, a value that is not JSON, or nothing that would change → InvalidRequestError.
 *
 * It does not stop a run of the session from going on meanwhile: like a rewind, the caller keeps
 * one writer per session (the app holds the session's lock, as for a run).
 */
export async function editSessionState(
  runner: { readonly appName: string; readonly sessionService: BaseSessionService },
  { userId, sessionId, changes }: EditStateRequest,
): Promise<Event> {
  const asked = checkStateChanges(changes);
  const key = { appName: runner.appName, userId, sessionId };
  // The state only: the log is not needed, and a session may hold 100,000 events.
  const session = await runner.sessionService.getSession({ ...key, numRecentEvents: 0 });
  if (!session) throw new SessionNotFoundError(sessionId);
  const delta = effectiveChanges(session.state, asked);
  if (!hasKeys(delta))
    throw new InvalidRequestError('The state already holds these values: nothing to change');
  return runner.sessionService.appendEvent({ session, event: createStateEditEvent(delta) });
}
