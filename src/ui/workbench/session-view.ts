// Everything the panels derive from an open session's opening (its state, the end of its active
// conversation, the end of its active path): pure functions of what the worker read, so that
// drawing a session costs what the opening holds, never the length of its log (nor of its long
// state values, which come as previews). Each part is computed once per value it depends on (a
// run extends the tail, and the state only with an event that changes it; not the path).

import { functionResponsesOf, textOf } from '../../core/content.ts';
import { isRewindMarker, type Event } from '../../core/event.ts';
import type { SessionOpening } from '../../../workers/protocol.ts';
import { pendingApprovals, type PendingApproval } from '../chat/approvals-model.ts';
import { chatItems, type ChatItem } from '../chat/chat-model.ts';
import { pendingInputRequests, type InputRequest } from '../chat/input-requests-model.ts';
import {
  checkpointRows,
  workflowCheckpointRows,
  type CheckpointRow,
} from '../history/checkpoints-model.ts';
import {
  historyRows,
  messageVersions,
  type HistoryRow,
  type TurnVersions,
} from '../history/history-model.ts';
import { stateGroups, stateShown, type StateGroup } from '../state/state-model.ts';
import {
  compactionNotes,
  compactionsByTurn,
  type CompactionNote,
} from '../history/compaction-model.ts';

export interface SessionView {
  /** The active events the opening holds, oldest first. */
  active: readonly Event[];
  chat: ChatItem[];
  /** More of the conversation lies before `chat` (ask for a longer tail). */
  earlierMessages: boolean;
  approvals: PendingApproval[];
  /** Questions and long-running calls that wait for the user's reply. */
  inputs: InputRequest[];
  history: HistoryRow[];
  /** More turns of the active path lie before `history` (ask for more turns). */
  earlierTurns: boolean;
  /** The versions of the turns shown that have several (the chat's branch arrows). */
  versions: Map<string, TurnVersions>;
  state: StateGroup[];
  /** The user's last text message in the conversation (↑ in the composer edits it). */
  lastMessage: { invocationId: string; text: string } | undefined;
  /** The context compactions in the tail, by the turn they happened in (History's notes). */
  compactions: ReadonlyMap<string, CompactionNote[]>;
}

type TailView = Pick<
  SessionView,
  'active' | 'chat' | 'approvals' | 'inputs' | 'lastMessage' | 'compactions'
>;

const views = new WeakMap<SessionOpening, SessionView>();
const tails = new WeakMap<SessionOpening['activeTail'], TailView>();
const paths = new WeakMap<SessionOpening['activePath'], HistoryRow[]>();
const states = new WeakMap<object, StateGroup[]>();
const versionMaps = new WeakMap<SessionOpening['activePath'], Map<string, TurnVersions>>();

export function sessionView(opening: SessionOpening): SessionView {
  let view = views.get(opening);
  if (!view) {
    view = {
      ...fromTail(opening.activeTail),
      earlierMessages: !opening.activeComplete,
      history: memo(paths, opening.activePath, () => historyRows(opening)),
      earlierTurns: !opening.pathComplete,
      versions: memo(versionMaps, opening.activePath, () => messageVersions(opening)),
      state: memo(states, opening.state, () => stateGroups(opening.state, opening.longState)),
    };
    views.set(opening, view);
  }
  return view;
}

function fromTail(tail: SessionOpening['activeTail']): TailView {
  return memo(tails, tail, () => {
    const active = tail.map(({ event }) => event);
    return {
      active,
      chat: chatItems(active),
      approvals: pendingApprovals(active),
      inputs: pendingInputRequests(active),
      lastMessage: lastUserMessage(active),
      compactions: compactionsByTurn(compactionNotes(active)),
    };
  });
}

/**
 * A flow session's checkpoint rows, from the first turn that begins in the tail (the worker
 * makes the tail reach the current turn), its node states on top of the state just before it.
 */
export function openingCheckpoints(
  opening: SessionOpening,
  { running, workflow }: { running: boolean; workflow?: string | undefined },
): CheckpointRow[] {
  const { activeTail, activeComplete, tailStart, summary } = opening;
  const from = tailStart?.seq ?? (activeComplete ? 0 : Infinity);
  const events = activeTail.filter(({ seq }) => seq >= from).map(({ event }) => event);
  const stateBefore = tailStart ? stateShown(tailStart.state, tailStart.longState) : {};
  return workflow
    ? workflowCheckpointRows(events, summary.id, workflow, { running, stateBefore })
    : checkpointRows(events, summary.id, { running, stateBefore });
}

/** The last message the user typed (not an answer to a call, not a rewind marker). */
function lastUserMessage(active: readonly Event[]): SessionView['lastMessage'] {
  for (let i = active.length - 1; i >= 0; i--) {
    const event = active[i]!;
    if (event.author !== 'user' || isRewindMarker(event)) continue;
    const text = textOf(event.content);
    if (text && !functionResponsesOf(event.content).length)
      return { invocationId: event.invocationId, text };
  }
  return undefined;
}

function memo<K extends object, V>(cache: WeakMap<K, V>, key: K, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    cache.set(key, value);
  }
  return value;
}
