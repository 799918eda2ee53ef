// The state editor (the State panel's "Edit state", History's "Edit state and re-run"): the
// changes the user has made so far against the state they started from, as key → new value
// (`null` removes the key, as in a state delta). Nothing reaches the worker until the user saves,
// and then as one state edit. Keys are any strings, `__proto__` included: every read and write
// here is of own properties (core/state.ts).
//
// The state may hold long values the page has only a preview of (`long`, workers/protocol.ts
// LongState): such a key is listed with its preview, can be removed or set, and its whole value
// is read from the worker only to edit it (StateEditor). A value set on it always counts as a
// change: the runner drops one that changes nothing.

import {
  applyDelta,
  hasOwnKey,
  ownValue,
  sameValue,
  scopeOf,
  setOwn,
  type State,
} from '../../core/state.ts';
import type { LongState } from '../../../workers/protocol.ts';
import { previewOf, shorterPreview, type Preview } from '../common/preview.ts';

export type StateChanges = Readonly<Record<string, unknown>>;

export const NO_CHANGES: StateChanges = {};

/** Characters of a value a row of the editor shows. */
const ROW_VALUE_CHARS = 120;

export type RowStatus = 'same' | 'added' | 'changed' | 'removed';

export interface EditorRow {
  key: string;
  /** The value once the changes are saved (the old one for a removed key). */
  preview: Preview;
  status: RowStatus;
}

/** The state's keys (no `temp:` ones) with the changes applied, sorted, each saying how it changed. */
export function editorRows(
  base: State,
  changes: StateChanges,
  long: Readonly<LongState> = {},
): EditorRow[] {
  const keys = [...new Set([...Object.keys(base), ...Object.keys(long), ...Object.keys(changes)])]
    .filter((key) => scopeOf(key) !== 'temp')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((key) => {
    const status = statusOf(base, changes, key, long);
    const preview =
      status === 'changed' || status === 'added'
        ? previewOf(ownValue(changes, key), { max: ROW_VALUE_CHARS })
        : hasOwnKey(long, key)
          ? shorterPreview(ownValue(long, key) as Preview, ROW_VALUE_CHARS)
          : previewOf(ownValue(base, key), { max: ROW_VALUE_CHARS });
    return { key, status, preview };
  });
}

function statusOf(base: State, changes: StateChanges, key: string, long: LongState): RowStatus {
  if (!hasOwnKey(changes, key)) return 'same';
  if (ownValue(changes, key) === null) return 'removed';
  return hasOwnKey(base, key) || hasOwnKey(long, key) ? 'changed' : 'added';
}

/**
 * Whether the editor holds only a preview of `key`'s value as it stands: a long value, not
 * changed (its whole value must be read to edit it).
 */
export function onlyPreviewOf(changes: StateChanges, key: string, long: Readonly<LongState> = {}) {
  return hasOwnKey(long, key) && !hasOwnKey(changes, key);
}

/** The changes with `key` set to `value` (`null`: removed); a change back to `base` is dropped. */
export function withChange(
  base: State,
  changes: StateChanges,
  key: string,
  value: unknown,
  long: Readonly<LongState> = {},
): StateChanges {
  const next: Record<string, unknown> = {};
  for (const [other, change] of Object.entries(changes))
    if (other !== key) setOwn(next, other, change);
  const unchanged =
    value === null
      ? !hasOwnKey(base, key) && !hasOwnKey(long, key)
      : hasOwnKey(base, key) && sameValue(ownValue(base, key), value);
  if (!unchanged) setOwn(next, key, value);
  return next;
}

/** The changes without the one to `key` (Undo). */
export function withoutChange(changes: StateChanges, key: string): StateChanges {
  const next: Record<string, unknown> = {};
  for (const [other, change] of Object.entries(changes))
    if (other !== key) setOwn(next, other, change);
  return next;
}

/** The value of `key` as the editor holds it now (`undefined`: not set). */
export function editedValue(base: State, changes: StateChanges, key: string): unknown {
  return ownValue(applyDelta(base, changes), key);
}

/** The JSON text a value is edited as (pretty, as the user would type it). */
export function valueText(value: unknown): string {
  return value === undefined ? '' : JSON.stringify(value, null, 2);
}

/** What is wrong with `key` as a key to set, or `undefined`. */
export function keyProblem(key: string): string | undefined {
  if (key.trim() === '') return 'A key cannot be empty.';
  if (scopeOf(key) === 'temp')
    return 'temp: keys last one invocation and are never stored, so they cannot be edited.';
  return undefined;
}

/** A value typed as JSON: the value, or what is wrong with the text. */
export function parseValue(text: string): { value: unknown } | { problem: string } {
  if (text.trim() === '')
    return { problem: 'Type a value as JSON: "blue" (a text needs quotes), 3, true or {"a": 1}.' };
  try {
    const value: unknown = JSON.parse(text);
    if (value === null) return { problem: 'null removes a key: use Remove instead.' };
    return { value };
  } catch (error) {
    const reason = (error as Error).message;
    // What looks like JSON gone wrong is not a text to quote; anything else is, and the hint
    // quotes it as it was typed.
    const typed = text.trim();
    if (/^[[{"]/.test(typed)) return { problem: `Not JSON (${reason}).` };
    return { problem: `Not JSON (${reason}). A text needs quotes: ${JSON.stringify(typed)}.` };
  }
}

/** Whether the changes touch `app:` or `user:` keys, which other sessions share and rewind leaves. */
export function changesSharedKeys(changes: StateChanges): boolean {
  return Object.keys(changes).some((key) => scopeOf(key) === 'app' || scopeOf(key) === 'user');
}
