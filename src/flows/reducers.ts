// How a node's Update State changes the flow's state (Flowise's State node): each custom key has
// an operation, `replace` or `append`, applied to the old value and the node's new one.
//
// Nothing here mutates: the result is a stateDelta for the node's event, and appending builds a
// new array, so state read from a session is never changed in place.

import { ownValue, setOwn } from '../core/state.ts';
import type { FlowStateKey, StateOperation } from './flow.ts';

/** The key's value after `operation` combines the old value with a new one. */
export function reduceValue(
  operation: StateOperation,
  old: unknown,
  value: unknown,
): { changed: boolean; value: unknown } {
  // Flowise keeps the old value when a node has nothing to say (a missing output field, say).
  if (value === undefined || value === null) return { changed: false, value: old };
  switch (operation) {
    case 'replace':
      return { changed: true, value };
    case 'append': {
      const base = Array.isArray(old) ? old : old === undefined || old === null ? [] : [old];
      return {
        changed: true,
        value: Array.isArray(value) ? [...base, ...value] : [...base, value],
      };
    }
    default:
      throw new Error(`Unknown state operation: ${String(operation satisfies never)}`);
  }
}

/**
 * The stateDelta for a node's Update State: each updated key's resulting value, for the keys that
 * changed. `updates` holds evaluated values (templates already resolved).
 */
export function stateUpdates(
  keys: readonly FlowStateKey[],
  state: Readonly<Record<string, unknown>>,
  updates: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(updates)) {
    const declared = keys.find((candidate) => candidate.key === key);
    // validateFlow rejects Update State keys missing from `state`: reaching here is a bug.
    if (!declared) throw new Error(`State key "${key}" is not declared in the flow's state`);
    const result = reduceValue(declared.operation, ownValue(state, key), value);
    if (result.changed) setOwn(delta, key, result.value);
  }
  return delta;
}

/** The defaults of the keys that have no value yet, for the start of a session. */
export function defaultStateDelta(
  keys: readonly FlowStateKey[],
  state: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  for (const { key, default: initial } of keys) {
    if (initial === undefined || initial === null || ownValue(state, key) !== undefined) continue;
    // A copy, so a later append to the session's value can never reach the flow's own default.
    // Defaults come from a JSON file, so a JSON round trip copies them exactly.
    setOwn(delta, key, JSON.parse(JSON.stringify(initial)) as unknown);
  }
  return delta;
}
