// A state edit: the user changing session state by hand, kept in the log as a turn of its own.
//
// The event is what ADK appends for a state change from outside a run: author `user`, no
// content, `actions.stateDelta` (a `null` value removes the key), an invocation of its own. Its
// mark in `customMetadata.trellis.stateEdit` is what makes it a turn (History lists it, rewind
// goes back to before it): the same shape without the mark is also how a session's initial state
// is recorded (store/session-log.ts), which is no turn, and logs stored before state edits existed
// must keep the turns they were counted with.

import { InvalidRequestError } from './errors.ts';
import { TRELLIS_METADATA } from './artifact-payloads.ts';
import { createEvent, isRewindMarker, type Event } from './event.ts';
import { newInvocationId } from './ids.ts';
import {
  StatePrefix,
  hasOwnKey,
  ownValue,
  sameValue,
  setOwn,
  scopeOf,
  type State,
  type StateDelta,
} from './state.ts';

/** The deepest nesting of objects and arrays a value may have (as a session file's). */
const MAX_DEPTH = 100;

/** Characters of a key, and of a value, that a state edit's title shows. */
const TITLE_KEY_CHARS = 40;
const TITLE_VALUE_CHARS = 40;
/** Characters of the whole title (History cuts its rows shorter still). */
const TITLE_CHARS = 300;

/** The state edit event for `delta` (already checked: see `checkStateChanges`). */
export function createStateEditEvent(delta: StateDelta): Event {
  const stateDelta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(delta)) setOwn(stateDelta, key, value);
  return createEvent({
    invocationId: newInvocationId(),
    author: 'user',
    actions: { stateDelta },
    customMetadata: { [TRELLIS_METADATA]: { stateEdit: true } },
  });
}

/** Whether `event` is a state edit the user made (see the top of this file). */
export function isStateEdit(event: Event): boolean {
  if (event.author !== 'user' || event.content || isRewindMarker(event)) return false;
  const trellis = ownValue(event.customMetadata, TRELLIS_METADATA);
  return typeof trellis === 'object' && trellis !== null && ownValue(trellis, 'stateEdit') === true;
}

/** "State edited: color = blue, size removed": how History and the chat name a state edit. */
export function stateEditText(delta: StateDelta): string {
  const changes = Object.entries(delta).map(([key, value]) => {
    const name = cut(key, TITLE_KEY_CHARS);
    if (value === null) return `${name} removed`;
    const shown = typeof value === 'string' ? value : JSON.stringify(value);
    return `${name} = ${cut(shown.replace(/\s+/g, ' '), TITLE_VALUE_CHARS)}`;
  });
  return cut(`State edited: ${changes.join(', ')}`, TITLE_CHARS);
}

/**
 * Checks changes a user asks for (key → new value, `null` removing the key) and returns them as a
 * delta of their own. InvalidRequestError, saying what is wrong, for: no change, a key that is
 * empty or `temp:` (never stored, so an edit of it would do nothing), a value that is not JSON
 * (undefined, a function, NaN, a cycle…) or is nested deeper than MAX_DEPTH.
 */
export function checkStateChanges(changes: unknown): Record<string, unknown> {
  if (typeof changes !== 'object' || changes === null || Array.isArray(changes))
    throw new InvalidRequestError('State changes are an object of keys and their new values');
  const delta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(changes)) {
    if (key.trim() === '') throw new InvalidRequestError('A state key cannot be empty');
    if (scopeOf(key) === 'temp') {
      throw new InvalidRequestError(
        `${StatePrefix.temp} keys last one invocation and are never stored: ${cut(key, 60)} cannot be edited`,
      );
    }
    const problem = jsonProblem(value);
    if (problem)
      throw new InvalidRequestError(`The value of ${cut(key, 60)} is not JSON: ${problem}`);
    setOwn(delta, key, value);
  }
  if (Object.keys(delta).length === 0)
    throw new InvalidRequestError('A state edit needs at least one key to change');
  return delta;
}

/** The changes of `delta` that change `state` (setting a key to its value, or removing a missing one, does not). */
export function effectiveChanges(state: State, delta: StateDelta): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(delta)) {
    const unchanged =
      value === null ? !hasOwnKey(state, key) : sameValue(ownValue(state, key), value);
    if (!unchanged) setOwn(kept, key, value);
  }
  return kept;
}

/** What makes `value` no JSON value, or `undefined` when it is one. Iterative: any depth is safe. */
function jsonProblem(value: unknown): string | undefined {
  const stack: { value: unknown; depth: number; ancestors: readonly object[] }[] = [
    { value, depth: 0, ancestors: [] },
  ];
  while (stack.length > 0) {
    const { value: item, depth, ancestors } = stack.pop()!;
    switch (typeof item) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!Number.isFinite(item)) return `${item} is no JSON number`;
        continue;
      case 'object': {
        if (item === null) continue;
        if (depth >= MAX_DEPTH) return `it is nested more than ${MAX_DEPTH} levels deep`;
        if (ancestors.includes(item)) return 'it contains itself';
        const proto = Object.getPrototypeOf(item) as unknown;
        if (!Array.isArray(item) && proto !== Object.prototype && proto !== null)
          return 'it holds an object that is not plain data';
        const inside = [...ancestors, item];
        for (const child of Object.values(item))
          stack.push({ value: child, depth: depth + 1, ancestors: inside });
        continue;
      }
      default:
        return `it holds ${item === undefined ? 'undefined' : `a ${typeof item}`}`;
    }
  }
  return undefined;
}

/** At most `max` characters, an ellipsis ending a cut text (never half a surrogate pair). */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${text.slice(0, end)}…`;
}
