// The initial state of an imported session: what a file's top-level `state` holds that its events
// do not explain. ADK's Session JSON keeps the state as it stands after every event; a session
// created with state (ADK's `createSession({state})`) has values no event set. Those become the
// first event of the imported log, as createSession logs them, so that a rewind to before the first
// turn keeps them and the state after the import is the file's.

import { createEvent, isRewindMarker, type Event } from './event.ts';
import { newInvocationId } from './ids.ts';
import { StatePrefix, setOwn } from './state.ts';

/**
 * The event that sets the file's initial state, or undefined when there is none. Only session
 * keys are taken: `app:` and `user:` values belong to every session of the app or the user here,
 * and a file must not change them; `temp:` values are never stored.
 */
export function initialStateOf(
  state: Record<string, unknown>,
  events: readonly Event[],
): Event | undefined {
  const setByEvents = new Set<string>();
  for (const event of events) {
    if (isRewindMarker(event)) continue;
    for (const key of Object.keys(event.actions.stateDelta)) setByEvents.add(key);
  }
  const initial: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(state)) {
    if (setByEvents.has(key) || Object.values(StatePrefix).some((p) => key.startsWith(p))) continue;
    setOwn(initial, key, value);
  }
  if (Object.keys(initial).length === 0) return undefined;
  const first = events[0];
  return {
    ...createEvent({
      invocationId: newInvocationId(),
      author: 'user',
      actions: { stateDelta: initial },
    }),
    timestamp: first ? first.timestamp : Date.now(),
  };
}
