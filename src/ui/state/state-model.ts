// The State panel: keys grouped by scope. A long value (one the opening sent as a preview,
// workers/protocol.ts LongState) is shown from its preview; the panel reads it whole only when
// the user asks (Show all, Download, Edit).

import { scopeOf, setOwn } from '../../core/state.ts';
import type { LongState } from '../../../workers/protocol.ts';
import { previewOf, shorterPreview, type Preview } from '../common/preview.ts';

export interface StateEntry {
  key: string;
  /** The value; `undefined` for a long one, which the page holds only a preview of. */
  value: unknown;
  preview: Preview;
  /** Only a preview of the value is here: the whole is read from the worker when asked for. */
  long: boolean;
}

export interface StateGroup {
  scope: 'session' | 'user' | 'app';
  label: string;
  entries: StateEntry[];
}

/** Characters of a value the panel shows before Show all. */
export const STATE_VALUE_CHARS = 500;

const LABELS = { session: 'Session', user: 'User (user:)', app: 'App (app:)' } as const;

export function stateGroups(
  state: Readonly<Record<string, unknown>>,
  longState: Readonly<LongState> = {},
): StateGroup[] {
  const groups: StateGroup[] = (['session', 'user', 'app'] as const).map((scope) => ({
    scope,
    label: LABELS[scope],
    entries: [],
  }));
  const entries: StateEntry[] = [
    ...Object.entries(state).map(([key, value]) => ({
      key,
      value,
      preview: previewOf(value, { max: STATE_VALUE_CHARS }),
      long: false,
    })),
    ...Object.entries(longState).map(([key, preview]) => ({
      key,
      value: undefined,
      preview: shorterPreview(preview, STATE_VALUE_CHARS),
      long: true,
    })),
  ];
  // Own entries only (any key is a key, `__proto__` included: see core/state.ts).
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  for (const entry of entries) {
    const scope = scopeOf(entry.key);
    if (scope === 'temp') continue;
    groups.find((group) => group.scope === scope)!.entries.push(entry);
  }
  return groups;
}

/**
 * A state with its long values written in as the start of their text (a string ending in "…"):
 * for what shows a whole state in a few characters (the Checkpoints panel's state after a node).
 */
export function stateShown(
  state: Readonly<Record<string, unknown>>,
  longState: Readonly<LongState> | undefined,
): Record<string, unknown> {
  if (!longState) return { ...state };
  const shown: Record<string, unknown> = { ...state };
  for (const [key, preview] of Object.entries(longState)) setOwn(shown, key, `${preview.text}…`);
  return shown;
}

/** The previews of the long values the groups list, by key (what the editor starts from). */
export function longValues(groups: readonly StateGroup[]): LongState {
  const long: LongState = {};
  for (const group of groups)
    for (const entry of group.entries) if (entry.long) setOwn(long, entry.key, entry.preview);
  return long;
}
