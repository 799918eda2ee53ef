// The History panel: the end of the active path of turns, from a session's opening, as rows. The
// conversation reads top to bottom without indentation; at a fork, the branches that left it are
// shown first by their first turn, indented one step and dimmed, then the conversation goes on
// where it was. A branch's own turns come back when the user switches to it.

import { turnRowText } from '../chat/chat-settings-model.ts';
import type { TurnOperations } from '../../core/branch-tree.ts';
import type { SessionOpening, TurnSummary } from '../../../workers/protocol.ts';
import { clip } from '../common/preview.ts';

export interface HistoryRow {
  invocationId: string;
  /** The turn's message, cut to one line's worth (editing it starts from the whole). */
  text: string;
  /** Which of the answers to the same message it is ("answer 2 of 3"), when there are several. */
  version?: string;
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
      if (!onPath.has(turn.invocationId)) rows.push(rowOf(turn, false, turns));
    }
  };
  if (pathComplete) branches(roots);
  activePath.forEach((turn, i) => {
    const siblings = i > 0 ? activePath[i - 1]!.children : pathComplete ? roots : undefined;
    rows.push(rowOf(turn, true, siblings));
    branches(turn.children);
  });
  return rows;
}

/** More than a row of the panel shows: the rest is ellipsed by CSS, never laid out. */
const TURN_CHARS = 200;

function rowOf(
  turn: TurnSummary,
  active: boolean,
  siblings: readonly TurnSummary[] | undefined,
): HistoryRow {
  const { invocationId, text } = turn;
  // Turns with the same message (Regenerate) read alike: their answer's number tells them apart.
  const answer =
    siblings && siblings.length > 1 ? versionsOf(invocationId, siblings).answer : undefined;
  return {
    invocationId,
    text: clip(turnRowText(text), TURN_CHARS),
    ...(answer ? { version: `answer ${answer.index} of ${answer.count}` } : {}),
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
 * parent, in the order they were written. Asking the same message again (Regenerate, or a
 * rewind and the same words) makes another version of the *answer*; a different message (Edit)
 * another version of the *message*. So the chat shows the message's ‹ 2 / 3 › on the user's
 * message and the answer's on the answer, as ChatGPT does.
 */
export interface TurnVersions {
  /** The message's versions (different texts), when there are several. */
  message?: VersionStep;
  /** The answers to this very message (same text), when there are several. */
  answer?: VersionStep;
}

/** One step of a ‹ index / count › control; `previous` and `next` are turns to switch to. */
export interface VersionStep {
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
}: HistorySource): Map<string, TurnVersions> {
  const versions = new Map<string, TurnVersions>();
  activePath.forEach((turn, i) => {
    // The first turn shown has its siblings only when the path starts at the root.
    const siblings = i > 0 ? activePath[i - 1]!.children : pathComplete ? roots : undefined;
    if (!siblings || siblings.length < 2) return;
    const found = versionsOf(turn.invocationId, siblings);
    if (found.message || found.answer) versions.set(turn.invocationId, found);
  });
  return versions;
}

/** Where `invocationId` stands among `siblings` (which hold it), as a message and as an answer. */
function versionsOf(invocationId: string, siblings: readonly TurnSummary[]): TurnVersions {
  const turn = siblings.find((sibling) => sibling.invocationId === invocationId);
  if (!turn) return {};
  // One group per message text, in the order each text was first written; a group's turns are
  // the answers to that message, and going to another message opens its latest answer.
  const groups = new Map<string, string[]>();
  for (const { text, invocationId: id } of siblings) {
    const group = groups.get(text);
    if (group) group.push(id);
    else groups.set(text, [id]);
  }
  const texts = [...groups.keys()];
  const answers = groups.get(turn.text)!;
  return {
    ...(texts.length > 1
      ? { message: stepOf(texts, texts.indexOf(turn.text), (text) => groups.get(text)!.at(-1)!) }
      : {}),
    ...(answers.length > 1
      ? { answer: stepOf(answers, answers.indexOf(invocationId), (id) => id) }
      : {}),
  };
}

function stepOf(
  list: readonly string[],
  at: number,
  turnOf: (item: string) => string,
): VersionStep {
  return {
    index: at + 1,
    count: list.length,
    ...(at > 0 ? { previous: turnOf(list[at - 1]!) } : {}),
    ...(at < list.length - 1 ? { next: turnOf(list[at + 1]!) } : {}),
  };
}
