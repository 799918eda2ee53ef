// The History panel: the end of the active path of turns, from a session's opening, as rows. The
// conversation reads top to bottom without indentation; at a fork, the branches that left it are
// shown first by their first turn, indented one step and dimmed, then the conversation goes on
// where it was. A branch's own turns come back when the user switches to it.

import type { TurnOperations } from '../core/branch-tree.ts';
import type { SessionOpening, TurnSummary } from '../../workers/protocol.ts';
import { clip } from './preview.ts';

export interface HistoryRow {
  invocationId: string;
  /** The turn's message, cut to one line's worth (editing it starts from the whole). */
  text: string;
  /** On the active path (the conversation the model sees now). */
  active: boolean;
  /** How many forks deep this turn's branch is (0 or 1: a branch shows its first turn only). */
  indent: number;
  /** The first turn of a branch that forked off its parent. */
  startsBranch: boolean;
  operations: HistoryOperations;
}

/**
 * What the History panel offers for a turn: the branch tree's operations, but switching to a
 * turn's branch names the turn, and the worker finds the marker to rewind before when the user
 * switches (finding it reads every marker of the session, which an opening must not).
 */
export interface HistoryOperations extends Omit<TurnOperations, 'switchToBranch' | 'fork'> {
  /** For a turn off the active path (always left by some marker): bring its branch back. */
  switchToBranch?: { invocationId: string };
  /** Absent where forking is not offered (a session on an ADK server). */
  fork?: TurnOperations['fork'];
}

/**
 * What a session on an ADK server offers of a turn: only its rewind (into a new session on the
 * server, where the server has no rewind of its own); the rest needs the session in the browser.
 */
export function rewindOnly(rows: readonly HistoryRow[]): HistoryRow[] {
  return rows.map((row) => ({ ...row, operations: { rewindBefore: row.operations.rewindBefore } }));
}

export type HistorySource = Pick<SessionOpening, 'activePath' | 'pathComplete' | 'roots'>;

/** Rows in reading order: O(turns shown), whatever the length of the session. */
export function historyRows({ activePath, pathComplete, roots }: HistorySource): HistoryRow[] {
  const rows: HistoryRow[] = [];
  const onPath = new Set(activePath.map((turn) => turn.invocationId));
  const branches = (turns: readonly TurnSummary[] | undefined) => {
    for (const turn of turns ?? []) {
      if (!onPath.has(turn.invocationId)) rows.push(rowOf(turn, false));
    }
  };
  if (pathComplete) branches(roots);
  for (const turn of activePath) {
    rows.push(rowOf(turn, true));
    branches(turn.children);
  }
  return rows;
}

/** More than a row of the panel shows: the rest is ellipsed by CSS, never laid out. */
const TURN_CHARS = 200;

function rowOf(turn: TurnSummary, active: boolean): HistoryRow {
  const { invocationId, text } = turn;
  return {
    invocationId,
    text: clip(text, TURN_CHARS),
    active,
    indent: active ? 0 : 1,
    startsBranch: !active,
    operations: {
      rewindBefore: { rewindBeforeInvocationId: invocationId },
      fork: { atInvocationId: invocationId },
      ...(turn.editable ? { edit: { invocationId, text } } : {}),
      ...(active ? {} : { switchToBranch: { invocationId } }),
    },
  };
}

/**
 * Where a turn of the active path stands among its versions: the turns that hang under the same
 * parent (an edited message and its original, or a turn rewound and asked again), in the order
 * they were written. The chat's ‹ 2 / 3 › arrows switch between them.
 */
export interface MessageVersions {
  /** 1-based. */
  index: number;
  count: number;
  previous?: string;
  next?: string;
}

/** The versions of each turn of the active path that has several (turns shown only). */
export function messageVersions({
  activePath,
  pathComplete,
  roots,
}: HistorySource): Map<string, MessageVersions> {
  const versions = new Map<string, MessageVersions>();
  activePath.forEach((turn, i) => {
    // The first turn shown has its siblings only when the path starts at the root.
    const siblings = i > 0 ? activePath[i - 1]!.children : pathComplete ? roots : undefined;
    if (!siblings || siblings.length < 2) return;
    const at = siblings.findIndex((sibling) => sibling.invocationId === turn.invocationId);
    if (at < 0) return;
    versions.set(turn.invocationId, {
      index: at + 1,
      count: siblings.length,
      ...(at > 0 ? { previous: siblings[at - 1]!.invocationId } : {}),
      ...(at < siblings.length - 1 ? { next: siblings[at + 1]!.invocationId } : {}),
    });
  });
  return versions;
}
