// The Sessions list as groups (issue 33), a pure function of the sessions: what the list shows,
// in which order. What must stay true:
// - every session is in exactly one group: archived wins over pinned, pinned over its folder;
// - within a group, the last active first (ties: by title, then id, so the order never flickers);
// - groups go Pinned, the folders by name, the rest ("Recent"), then Archived, and an empty group
//   is not shown.

import type { SessionSummary } from '../../../workers/protocol.ts';

export type SessionGroupKind = 'pinned' | 'folder' | 'recent' | 'archived';

export interface SessionGroup {
  /** Stable across changes (what a collapsed group is remembered by). */
  key: string;
  kind: SessionGroupKind;
  /** Its heading: "Pinned", the folder's name, "Recent", "Archived". */
  label: string;
  sessions: SessionSummary[];
}

export function groupSessions(sessions: readonly SessionSummary[]): SessionGroup[] {
  const pinned: SessionSummary[] = [];
  const recent: SessionSummary[] = [];
  const archived: SessionSummary[] = [];
  const folders = new Map<string, SessionSummary[]>();
  for (const session of [...sessions].sort(byLastActivity)) {
    if (session.archived) archived.push(session);
    else if (session.pinned) pinned.push(session);
    else if (session.folder) {
      const list = folders.get(session.folder) ?? [];
      folders.set(session.folder, [...list, session]);
    } else recent.push(session);
  }
  const groups: SessionGroup[] = [
    { key: 'pinned', kind: 'pinned', label: 'Pinned', sessions: pinned },
    ...[...folders.keys()].sort(byName).map((name) => ({
      key: `folder:${name}`,
      kind: 'folder' as const,
      label: name,
      sessions: folders.get(name)!,
    })),
    { key: 'recent', kind: 'recent', label: 'Recent', sessions: recent },
    { key: 'archived', kind: 'archived', label: 'Archived', sessions: archived },
  ];
  return groups.filter((group) => group.sessions.length > 0);
}

/** The folders the sessions are in (archived ones' too), by name: what "Move to folder" offers. */
export function folderNames(sessions: readonly SessionSummary[]): string[] {
  const names = new Set(sessions.flatMap((session) => (session.folder ? [session.folder] : [])));
  return [...names].sort(byName);
}

/**
 * The ids from `from` to `to` in the order shown (Shift-click selects a range), both included;
 * `to` alone when `from` is not shown (any more).
 */
export function rangeOf(shown: readonly string[], from: string | undefined, to: string): string[] {
  const start = from === undefined ? -1 : shown.indexOf(from);
  const end = shown.indexOf(to);
  if (start < 0 || end < 0) return [to];
  return shown.slice(Math.min(start, end), Math.max(start, end) + 1);
}

function byLastActivity(a: SessionSummary, b: SessionSummary): number {
  return (
    b.lastUpdateTime - a.lastUpdateTime ||
    a.title.localeCompare(b.title) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
  );
}

const byName = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base' });
