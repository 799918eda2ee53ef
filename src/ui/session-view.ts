// Everything the panels derive from an open session, computed once per snapshot.

import { activeEvents } from '../core/active-events.ts';
import { branchTree, type BranchTree } from '../core/branch-tree.ts';
import type { Event } from '../core/event.ts';
import type { SessionSnapshot } from '../../workers/protocol.ts';
import { pendingApprovals, type PendingApproval } from './approvals-model.ts';
import { chatItems, type ChatItem } from './chat-model.ts';
import { historyRows, type HistoryRow } from './history-model.ts';
import { stateGroups, type StateGroup } from './state-model.ts';

export interface SessionView {
  active: readonly Event[];
  tree: BranchTree;
  history: HistoryRow[];
  chat: ChatItem[];
  approvals: PendingApproval[];
  state: StateGroup[];
}

const views = new WeakMap<SessionSnapshot, SessionView>();
const logs = new WeakMap<readonly Event[], Omit<SessionView, 'state'>>();
const states = new WeakMap<object, StateGroup[]>();

export function sessionView(snapshot: SessionSnapshot): SessionView {
  let view = views.get(snapshot);
  if (!view) {
    view = { ...fromLog(snapshot.events), state: fromState(snapshot.state) };
    views.set(snapshot, view);
  }
  return view;
}

function fromLog(events: readonly Event[]) {
  let derived = logs.get(events);
  if (!derived) {
    const active = activeEvents(events);
    const tree = branchTree(events);
    derived = {
      active,
      tree,
      history: historyRows(tree),
      chat: chatItems(active),
      approvals: pendingApprovals(active),
    };
    logs.set(events, derived);
  }
  return derived;
}

function fromState(state: Record<string, unknown>): StateGroup[] {
  let groups = states.get(state);
  if (!groups) {
    groups = stateGroups(state);
    states.set(state, groups);
  }
  return groups;
}
