// The turn summary of a session, read the same way by both session services (each over its own
// storage), so that they cannot disagree: where a rewind marker moves the tip, what opening a
// session reads — the end of the active conversation and the end of the active path of turns —
// without reading the whole log, and which marker brings a branch back.
//
// What must stay true: the tip kept in the session record is the tip of core/branch-tree.ts, and
// the last turn whose first event is among the active events of core/active-events.ts. Both views
// agree on it, so a marker's tip can be found either way; a walk back over the active events is the
// one that needs no replay.

import { indexAfterMarker } from '../core/active-events.ts';
import { InvalidRequestError, InvocationNotFoundError } from '../core/errors.ts';
import { rewindTargetOf, type Event, type RewindTarget } from '../core/event.ts';
import type { RewindReader } from './rewind-point.ts';
import { NO_TURN, type InvocationTurn, type RestoredTip } from './session-log.ts';
import type {
  ActiveTurnSummary,
  LoggedEvent,
  Session,
  SessionSummary,
  TurnSummary,
} from './session-service.ts';

/** A turn's record as a store keeps it: its invocation, first position and bookkeeping. */
export interface StoredTurn {
  invocationId: string;
  firstSeq: number;
  turn: InvocationTurn;
}

/** What reading a session's turn summary reads from its storage. */
export interface TurnReader extends RewindReader {
  /** The bookkeeping of an invocation (absent for one the log does not have). */
  invocationTurn(invocationId: string): Promise<StoredTurn | undefined>;
  /** How many turns hang under `parentId` (`NO_TURN`: the roots). */
  childCount(parentId: string): Promise<number>;
  /** The turns hanging under `parentId`, in log order. */
  children(parentId: string): Promise<StoredTurn[]>;
  /**
   * The markers that moved the tip, in log order: every one, so a switch to a branch and the raw
   * log's pages read them, never an opening (their number grows with the rewinds).
   */
  markers(): Promise<StoredTurn[]>;
}

/**
 * Where a rewind marker of invocation `markerInvocationId` to `target`, about to be appended at the
 * end of the log, moves the tip (`undefined`: its target is not before it, so it moves nothing).
 */
export async function tipRestoredBy(
  reader: TurnReader,
  target: RewindTarget,
  markerInvocationId: string,
): Promise<RestoredTip> {
  if (target.type === 'beforeInvocation') {
    if (target.invocationId === markerInvocationId) return undefined;
    const began = await reader.invocationTurn(target.invocationId);
    return began && { tip: began.turn.tipBefore };
  }
  const found = await reader.findEvent(target.eventId);
  return found && { tip: await tipThrough(reader, found.index) };
}

/**
 * The tip right after the event at `index` was written: the last turn whose first event is among
 * the active events of the log up to `index`, found walking back from there.
 */
async function tipThrough(reader: TurnReader, index: number): Promise<string> {
  let i = index;
  while (i >= 0) {
    const event = await reader.eventAt(i);
    const target = rewindTargetOf(event);
    if (target) {
      i = indexAfterMarker(target, await reader.indexOfTarget(target), i);
      continue;
    }
    const began = await reader.invocationTurn(event.invocationId);
    if (began?.firstSeq === i && began.turn.turn) return event.invocationId;
    i--;
  }
  return NO_TURN;
}

/**
 * The last `limit` active events, oldest first, read back from the end in spans of `limit`
 * events: it reads the active events it returns and the markers on the way, never the spans
 * that rewinds hid.
 */
export async function activeTail(
  reader: TurnReader,
  limit: number,
): Promise<{ events: LoggedEvent[]; complete: boolean }> {
  const kept: LoggedEvent[] = [];
  const spanLength = Math.max(1, limit);
  let span: Event[] = [];
  let spanFrom = 0;
  let i = reader.length - 1;
  while (i >= 0 && kept.length < limit) {
    if (i < spanFrom || i >= spanFrom + span.length) {
      spanFrom = Math.max(0, i - spanLength + 1);
      span = await reader.span(spanFrom, i);
    }
    const event = span[i - spanFrom]!;
    const target = rewindTargetOf(event);
    if (target === undefined) {
      kept.push({ seq: i, event });
      i--;
      continue;
    }
    i = indexAfterMarker(target, await reader.indexOfTarget(target), i);
  }
  return { events: kept.reverse(), complete: i < 0 };
}

/** The summary of a session whose record says `tip`; `session` has no events. */
export async function readSessionSummary(
  reader: TurnReader,
  session: Session,
  tip: string,
  { numActiveEvents = 50, numTurns = 50 } = {},
): Promise<SessionSummary> {
  const [tail, path] = await Promise.all([
    activeTail(reader, numActiveEvents),
    activePathEnd(reader, tip, numTurns),
  ]);
  const pathComplete = path.length === 0 || path[0]!.turn.turn!.parentId === NO_TURN;
  // A branch is listed without the marker that brings it back (switchMarker finds it when asked):
  // finding it reads every marker of the session, which would make the open grow with rewinds.
  const branches = async (parentId: string) => (await reader.children(parentId)).map(summaryOf);
  const counts = await Promise.all(path.map((turn) => reader.childCount(turn.invocationId)));
  // The tip's children are all off the active path (a rewind to just after it left them): they
  // are listed as soon as there is one, so that a branch just left can be switched back to.
  const listsChildren = (i: number) => counts[i]! > 1 || (i === path.length - 1 && counts[i]! > 0);
  const activePath: ActiveTurnSummary[] = await Promise.all(
    path.map(async (turn, i) => ({
      ...summaryOf(turn),
      childCount: counts[i]!,
      ...(listsChildren(i) ? { children: await branches(turn.invocationId) } : {}),
    })),
  );
  const roots = pathComplete ? await branches(NO_TURN) : undefined;
  return {
    session,
    eventCount: reader.length,
    activeTail: tail.events,
    activeComplete: tail.complete,
    activePath,
    pathComplete,
    ...(roots ? { roots } : {}),
  };
}

/** The last `limit` turns of the active path, oldest first, walked up from the tip. */
async function activePathEnd(
  reader: TurnReader,
  tip: string,
  limit: number,
): Promise<StoredTurn[]> {
  const path: StoredTurn[] = [];
  for (let id = tip; id !== NO_TURN && path.length < limit;) {
    const turn = await reader.invocationTurn(id);
    if (!turn?.turn.turn) throw new Error(`Bug: the tip ${id} is not a turn`);
    path.push(turn);
    id = turn.turn.turn.parentId;
  }
  return path.reverse();
}

/**
 * The marker to rewind before to bring back the branch of the turn `invocationId`, off the active
 * path of a session whose record says `tip`: the last marker that left a turn of that branch, as
 * core/branch-tree.ts finds it. It reads every marker of the session, so opening one never asks
 * (the page asks when the user switches). Unknown invocation → InvocationNotFoundError; one that
 * is not a turn, or a turn on the active path → InvalidRequestError.
 */
export async function switchMarker(
  reader: TurnReader,
  tip: string,
  invocationId: string,
  sessionId: string,
): Promise<string> {
  const branch = await reader.invocationTurn(invocationId);
  if (!branch) throw new InvocationNotFoundError(invocationId, sessionId);
  if (!branch.turn.turn) {
    throw new InvalidRequestError(`Invocation ${invocationId} is not a turn: it has no branch`);
  }
  if (await inBranch(reader, tip, branch)) {
    throw new InvalidRequestError(
      `Turn ${invocationId} is on the active path: there is no branch to switch to`,
    );
  }
  const markers = await reader.markers();
  for (let m = markers.length - 1; m >= 0; m--) {
    const marker = markers[m]!;
    if (await inBranch(reader, marker.turn.marker!.abandonedTip, branch)) {
      return marker.invocationId;
    }
  }
  // The tip was in the branch when its first turn was written, and is not now: a marker left it.
  throw new Error(`Bug: no marker left the branch of ${invocationId}`);
}

/** Whether the turn `id` is `branch` or hangs below it, walked up to no earlier than `branch`. */
async function inBranch(reader: TurnReader, id: string, branch: StoredTurn): Promise<boolean> {
  while (id !== NO_TURN) {
    if (id === branch.invocationId) return true;
    const turn = await reader.invocationTurn(id);
    if (!turn?.turn.turn || turn.firstSeq < branch.firstSeq) return false;
    id = turn.turn.turn.parentId;
  }
  return false;
}

function summaryOf(stored: StoredTurn): TurnSummary {
  const turn = stored.turn.turn!;
  return {
    invocationId: stored.invocationId,
    parentId: turn.parentId === NO_TURN ? undefined : turn.parentId,
    text: turn.title,
    firstSeq: stored.firstSeq,
    editable: turn.editable,
  };
}
