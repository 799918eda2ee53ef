// The Sessions list's groups (src/ui/sessions/session-groups.ts): last activity first, Pinned on
// top, folders by name, Archived last; each session in one group only; Shift-click ranges.

import { describe, expect, it } from 'vitest';
import type { SessionSummary } from '../../../workers/protocol.ts';
import { folderNames, groupSessions, rangeOf } from '../../../src/ui/sessions/session-groups.ts';

function session(
  title: string,
  lastUpdateTime: number,
  organised: Pick<SessionSummary, 'pinned' | 'archived' | 'folder'> = {},
): SessionSummary {
  return { id: `id-${title}`, title, agentId: 'a', createdAt: 0, lastUpdateTime, ...organised };
}

const shown = (sessions: SessionSummary[]) =>
  groupSessions(sessions).map((group) => [group.label, group.sessions.map((s) => s.title)]);

describe('the Sessions list’s groups', () => {
  it('lists the last active first, in one group when nothing is organised', () => {
    expect(shown([session('old', 1), session('new', 3), session('mid', 2)])).toEqual([
      ['Recent', ['new', 'mid', 'old']],
    ]);
  });

  it('puts Pinned on top, folders by name, then the rest, then Archived; each session once', () => {
    const sessions = [
      session('a', 1, { pinned: true, folder: 'work' }),
      session('b', 2, { folder: 'Zoo' }),
      session('c', 3, { folder: 'work' }),
      session('d', 4, { archived: true, pinned: true, folder: 'work' }),
      session('e', 5),
      session('f', 6, { folder: 'work' }),
      session('g', 7, { archived: true }),
    ];
    expect(shown(sessions)).toEqual([
      ['Pinned', ['a']],
      ['work', ['f', 'c']],
      ['Zoo', ['b']],
      ['Recent', ['e']],
      ['Archived', ['g', 'd']],
    ]);
    expect(groupSessions(sessions).map((group) => group.key)).toEqual([
      'pinned',
      'folder:work',
      'folder:Zoo',
      'recent',
      'archived',
    ]);
    expect(folderNames(sessions)).toEqual(['work', 'Zoo']);
  });

  it('orders sessions active at the same time by title, then id, so that it never flickers', () => {
    const same = [session('b', 5), session('a', 5), { ...session('a', 5), id: 'id-0' }];
    expect(groupSessions(same)[0]!.sessions.map((s) => s.id)).toEqual(['id-0', 'id-a', 'id-b']);
  });

  it('shows no group for nothing', () => {
    expect(groupSessions([])).toEqual([]);
    expect(folderNames([session('a', 1)])).toEqual([]);
  });

  it.each([
    ['forwards', 'b', 'd', ['b', 'c', 'd']],
    ['backwards', 'd', 'b', ['b', 'c', 'd']],
    ['from itself', 'c', 'c', ['c']],
    ['with no anchor', undefined, 'c', ['c']],
    ['from one no longer shown', 'x', 'c', ['c']],
  ])('selects a range %s', (_, from, to, range) => {
    expect(rangeOf(['a', 'b', 'c', 'd', 'e'], from, to)).toEqual(range);
  });
});
