// The State panel: keys grouped by scope.

import { scopeOf } from '../core/state.ts';
import { previewOf, type Preview } from './preview.ts';

export interface StateGroup {
  scope: 'session' | 'user' | 'app';
  label: string;
  entries: { key: string; value: unknown; preview: Preview }[];
}

/** Characters of a value the panel shows before Show all. */
export const STATE_VALUE_CHARS = 500;

const LABELS = { session: 'Session', user: 'User (user:)', app: 'App (app:)' } as const;

export function stateGroups(state: Readonly<Record<string, unknown>>): StateGroup[] {
  const groups: StateGroup[] = (['session', 'user', 'app'] as const).map((scope) => ({
    scope,
    label: LABELS[scope],
    entries: [],
  }));
  // Own entries only (any key is a key, `__proto__` included: see core/state.ts).
  const entries = Object.entries(state).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, value] of entries) {
    const scope = scopeOf(key);
    if (scope === 'temp') continue;
    groups
      .find((group) => group.scope === scope)!
      .entries.push({ key, value, preview: previewOf(value, { max: STATE_VALUE_CHARS }) });
  }
  return groups;
}
