// The branch tree of a session, derived from its raw log alone.
//
// Rewinds make the log a tree of turns. A turn is an invocation that starts with a message (the
// user's, usually) or a state edit, together with every event answering it; markers are not
// turns, and neither is an invocation the user's answer to calls starts (an approval, a reply to
// a question, a long-running tool's result, as an ADK server or ADK Python's log has them: a new
// invocation for the answer): it goes on the turn that made the calls. A turn hangs
// under the turn that ended the active conversation when the turn began. Walking the log once,
// with `tip` the last turn of the active conversation:
// - a new turn becomes a child of `tip`, and the new `tip`;
// - a marker rewinding before invocation X sets `tip` to what it was when X began, exactly as
//   `activeEvents` drops everything from X on;
// - a marker rewinding to just after event E sets `tip` to what it was right after E was
//   written (E's turn, usually, which stays on the active path), exactly as `activeEvents` keeps
//   the log up to E;
// so both views always agree.

import { textOf } from './content.ts';
import { rewindTargetOf, type Event, type RewindTarget } from './event.ts';
import { isStateEdit, stateEditText } from './state-edit.ts';

export interface TurnOperations {
  /** Rewind before this turn: `rewindAsync({ rewindBeforeInvocationId })`. */
  rewindBefore: { rewindBeforeInvocationId: string };
  /**
   * For a turn off the active path: rewinding before this marker (the last one that left the
   * turn's branch) brings the branch back, state and artifacts included.
   */
  switchToBranch?: { rewindBeforeInvocationId: string };
  /** Edit the message and run it again (`editMessageAsync`); only for the user's messages. */
  edit?: { invocationId: string; text: string };
  /** Copy the conversation up to and including this turn into a new session. */
  fork: { atInvocationId: string };
}

export interface Turn {
  invocationId: string;
  parentId: string | undefined;
  childIds: string[];
  /** The text of the message that started the turn. */
  text: string;
  /** The event that started the turn (the user's message). */
  firstEvent: Event;
  /** Every event of the turn's invocation (and of the answers that went on it), in log order. */
  events: Event[];
  /** On the active path (the conversation the model sees now). */
  active: boolean;
  /** 0 for a turn with no parent. */
  depth: number;
  operations: TurnOperations;
}

export interface RewindMarkerInfo {
  /** The marker's own invocation id. */
  invocationId: string;
  /** The invocation it rewound to before (set for that kind of marker only). */
  rewindBeforeInvocationId?: string;
  /** The event it rewound to just after (set for that kind of marker only). */
  rewindAfterEventId?: string;
  /** The last turn of the conversation it left (undefined: it left an empty conversation). */
  abandonedTipId: string | undefined;
  /** The last turn of the conversation it went back to. */
  restoredTipId: string | undefined;
}

export interface BranchTree {
  /** Every turn, in the order the log started them. */
  turns: Turn[];
  byId: ReadonlyMap<string, Turn>;
  rootIds: string[];
  /** The active conversation's turns, oldest first. */
  activePath: string[];
  /** Turns with more than one child: where branches fork. */
  forkIds: string[];
  markers: RewindMarkerInfo[];
}

export function branchTree(log: readonly Event[]): BranchTree {
  const turns: Turn[] = [];
  const byId = new Map<string, Turn>();
  const rootIds: string[] = [];
  const markers: RewindMarkerInfo[] = [];
  /** Invocation id → the tip when its first event was written. */
  const tipAtStart = new Map<string, string | undefined>();
  /** Event id → the tip right after it was written. */
  const tipAfter = new Map<string, string | undefined>();
  /** Invocation id → the turn its events belong to (an answer's: the turn it answers). */
  const turnOf = new Map<string, string | undefined>();
  let tip: string | undefined;
  /** The tip a marker goes back to, if its target lies before it (else it changes nothing). */
  function restoredBy(
    target: RewindTarget,
    markerId: string,
  ): { tip: string | undefined } | undefined {
    if (target.type === 'afterEvent') {
      return tipAfter.has(target.eventId) ? { tip: tipAfter.get(target.eventId) } : undefined;
    }
    const { invocationId } = target;
    if (invocationId === markerId || !tipAtStart.has(invocationId)) return undefined;
    return { tip: tipAtStart.get(invocationId) };
  }

  for (const event of log) {
    const id = event.invocationId;
    const target = rewindTargetOf(event);
    if (!tipAtStart.has(id)) {
      tipAtStart.set(id, tip);
      turnOf.set(id, isAnswer(event) ? tip : id);
      if (isTurnStart(event)) {
        const parent = tip === undefined ? undefined : byId.get(tip);
        const text = turnText(event);
        const turn: Turn = {
          invocationId: id,
          parentId: tip,
          childIds: [],
          text,
          firstEvent: event,
          events: [],
          active: false,
          depth: parent ? parent.depth + 1 : 0,
          operations: {
            rewindBefore: { rewindBeforeInvocationId: id },
            fork: { atInvocationId: id },
            ...(event.author === 'user' && textOf(event.content)
              ? { edit: { invocationId: id, text } }
              : {}),
          },
        };
        turns.push(turn);
        byId.set(id, turn);
        if (parent) parent.childIds.push(id);
        else rootIds.push(id);
        tip = id;
      }
    }
    const owner = turnOf.get(id);
    if (owner !== undefined) byId.get(owner)?.events.push(event);
    const restored = target && restoredBy(target, id);
    if (target && restored) {
      markers.push({
        invocationId: id,
        ...(target.type === 'beforeInvocation'
          ? { rewindBeforeInvocationId: target.invocationId }
          : { rewindAfterEventId: target.eventId }),
        abandonedTipId: tip,
        restoredTipId: restored.tip,
      });
      tip = restored.tip;
    }
    tipAfter.set(event.id, tip);
  }

  const activePath: string[] = [];
  for (
    let turn = tip === undefined ? undefined : byId.get(tip);
    turn;
    turn = byId.get(turn.parentId!)
  ) {
    turn.active = true;
    activePath.push(turn.invocationId);
  }
  activePath.reverse();

  // The last marker that left a turn's branch is the one to rewind before to bring it back.
  for (const marker of markers) {
    for (let turn = byId.get(marker.abandonedTipId!); turn; turn = byId.get(turn.parentId!)) {
      if (!turn.active)
        turn.operations.switchToBranch = { rewindBeforeInvocationId: marker.invocationId };
    }
  }

  const forkIds = turns.filter((turn) => turn.childIds.length > 1).map((turn) => turn.invocationId);
  return { turns, byId, rootIds, activePath, forkIds, markers };
}

/**
 * Whether `event`, the first of its invocation, starts a turn: a message, not a marker nor the
 * user's answer to calls, or the user's edit of the state (core/state-edit.ts), which can be
 * rewound like a message.
 */
export function isTurnStart(event: Event): boolean {
  return (
    (Boolean(event.content) && rewindTargetOf(event) === undefined && !isAnswer(event)) ||
    isStateEdit(event)
  );
}

/**
 * Whether `event` is the user answering calls and nothing else (function responses only: an
 * approval's `adk_request_confirmation`, a question's reply, a long-running tool's result).
 */
export function isAnswer(event: Event): boolean {
  const parts = event.content?.parts ?? [];
  return (
    event.author === 'user' &&
    parts.length > 0 &&
    parts.every((part) => part.functionResponse !== undefined)
  );
}

/** The text a turn is shown with: the message's text, or what else it holds. */
export function turnText(event: Event): string {
  if (isStateEdit(event)) return stateEditText(event.actions.stateDelta);
  const text = textOf(event.content);
  if (text) return text;
  const parts = event.content?.parts ?? [];
  const response = parts.find((part) => part.functionResponse)?.functionResponse;
  if (response) return `Result of ${response.name}`;
  if (parts.some((part) => part.inlineData)) return 'Attachment';
  return '';
}
