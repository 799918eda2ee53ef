// What an export shows of a session, before it is written as HTML or Markdown: the active
// conversation's turns in order (all, or a range), each with the chat's items (chat-model.ts: the
// same reading of the events the chat shows), the files its turn saved, its usage and times, and
// where the conversation was rewound, the versions it left (other branches), each a line of turns
// of its own. Pure data from the session's log. What must stay true:
// - every turn of the log is shown once: on the active line, or in exactly one other branch;
// - nothing but the log's messages, calls, files, usage and times, the title and the agent's
//   name: the writers escape all of it, none of it is trusted.

import { activeEvents } from '../../core/active-events.ts';
import { branchTree, type BranchTree, type Turn } from '../../core/branch-tree.ts';
import { artifactPayloadsOf } from '../../core/artifact-payloads.ts';
import type { Event } from '../../core/event.ts';
import { turnsInRange, type RangePlace, type TurnRange } from '../../core/turn-range.ts';
import { NO_USAGE, withEventUsage, type SessionUsage } from '../../core/usage.ts';
import type { ExportSource } from '../../../workers/protocol.ts';
import { chatItems, type ChatItem } from '../chat/chat-model.ts';

/** A file a turn saved (an artifact version), with its bytes when the export carries them. */
export interface ExportFile {
  name: string;
  version: number;
  mimeType?: string;
  /** base64, for an image the writers show inline. */
  data?: string;
  /** A text file's content. */
  text?: string;
}

export interface ExportTurn {
  invocationId: string;
  /** Its place in the active conversation, from 1 (rewound turns have none). */
  number?: number;
  startedAt: number;
  endedAt: number;
  items: ChatItem[];
  files: ExportFile[];
  usage: SessionUsage;
  /** Versions of this turn the conversation was rewound from: each a branch of its own. */
  alternatives: ExportBranch[];
}

/** A rewound branch: its turns, from the one that started it, along its latest line. */
export interface ExportBranch {
  turns: ExportTurn[];
}

export interface ExportDocument {
  title: string;
  agent: string;
  createdAt: number;
  updatedAt: number;
  exportedAt: number;
  /** Set when a range of turns is exported. */
  range?: RangePlace;
  turns: ExportTurn[];
  /** Branches rewound after the last turn shown (the conversation went back, and on no further). */
  after: ExportBranch[];
  /** The shown active turns' usage. */
  usage: SessionUsage;
  /** The shown rewound branches' usage (they were paid for too). */
  rewoundUsage: SessionUsage;
  /** Authors' names by identifier (the agent builder's), as the chat shows them. */
  authors: ReadonlyMap<string, string>;
}

export interface ExportOptions {
  range?: TurnRange | undefined;
  /** The agent's name (else its id). */
  agentName?: string | undefined;
  authors?: ReadonlyMap<string, string> | undefined;
  exportedAt?: number;
}

export function exportDocument(source: ExportSource, options: ExportOptions = {}): ExportDocument {
  const tree = branchTree(source.events);
  const { turns, place } = turnsInRange(tree, options.range);
  const active = activeEvents(source.events);
  const activeIds = new Set(active.map((event) => event.id));
  // The chat's items over the whole active conversation (a call's status needs what came after).
  const itemsByTurn = groupByTurn(chatItems(active), tree, activeIds);
  const counted = { rewound: NO_USAGE };
  const branch = (turn: Turn): ExportBranch => ({
    turns: line(turn, tree).map((t, i) => {
      const shown = exportTurn(t, t.events, chatItems(t.events), undefined);
      // The first turn's siblings are listed where this branch is; the others' here.
      if (i > 0) shown.alternatives = siblings(t, tree).map(branch);
      counted.rewound = plus(counted.rewound, shown.usage);
      return shown;
    }),
  });
  const shown = turns.map((turn, i) => {
    const events = turn.events.filter((event) => activeIds.has(event.id));
    const at = exportTurn(turn, events, itemsByTurn.get(turn.invocationId) ?? [], place.first + i);
    at.alternatives = siblings(turn, tree).map(branch);
    return at;
  });
  const last = turns.at(-1);
  const atEnd = !options.range || place.last === place.of;
  const after = atEnd
    ? (last ? last.childIds : tree.rootIds).map((id) => branch(tree.byId.get(id)!))
    : [];
  return {
    title: source.title,
    agent: options.agentName ?? source.agentId,
    createdAt: source.createdAt,
    updatedAt: source.lastUpdateTime,
    exportedAt: options.exportedAt ?? Date.now(),
    ...(options.range ? { range: place } : {}),
    turns: shown,
    after,
    usage: shown.reduce((sum, turn) => plus(sum, turn.usage), NO_USAGE),
    rewoundUsage: counted.rewound,
    authors: options.authors ?? new Map(),
  };
}

function exportTurn(
  turn: Turn,
  events: readonly Event[],
  items: ChatItem[],
  number: number | undefined,
): ExportTurn {
  const first = events[0] ?? turn.firstEvent;
  return {
    invocationId: turn.invocationId,
    ...(number !== undefined ? { number } : {}),
    startedAt: first.timestamp,
    endedAt: (events.at(-1) ?? first).timestamp,
    items,
    files: filesOf(events),
    usage: events.reduce(withEventUsage, NO_USAGE),
    alternatives: [],
  };
}

/** The active items of each turn, by the turn's invocation id. */
function groupByTurn(
  items: ChatItem[],
  tree: BranchTree,
  activeIds: ReadonlySet<string>,
): Map<string, ChatItem[]> {
  const turnOfEvent = new Map<string, string>();
  for (const id of tree.activePath)
    for (const event of tree.byId.get(id)!.events)
      if (activeIds.has(event.id)) turnOfEvent.set(event.id, id);
  const byTurn = new Map<string, ChatItem[]>();
  for (const item of items) {
    const turn = turnOfEvent.get(item.eventId);
    if (turn === undefined) continue;
    let list = byTurn.get(turn);
    if (!list) byTurn.set(turn, (list = []));
    list.push(item);
  }
  return byTurn;
}

/** The turn and its latest descendants: the line a branch reads as. */
function line(turn: Turn, tree: BranchTree): Turn[] {
  const turns = [turn];
  for (let id = turn.childIds.at(-1); id !== undefined;) {
    const next = tree.byId.get(id)!;
    turns.push(next);
    id = next.childIds.at(-1);
  }
  return turns;
}

/** The other versions of `turn`: its parent's other children (the other roots for a first turn). */
function siblings(turn: Turn, tree: BranchTree): Turn[] {
  const ids = turn.parentId === undefined ? tree.rootIds : tree.byId.get(turn.parentId)!.childIds;
  return ids.filter((id) => id !== turn.invocationId).map((id) => tree.byId.get(id)!);
}

/** The artifact versions the events saved, with the bytes the export carries. */
function filesOf(events: readonly Event[]): ExportFile[] {
  const files: ExportFile[] = [];
  for (const event of events) {
    const payloads = artifactPayloadsOf(event);
    for (const [name, version] of Object.entries(event.actions.artifactDelta ?? {})) {
      if (typeof version !== 'number' || name.startsWith('user:')) continue;
      const part = payloads && Object.hasOwn(payloads, name) ? payloads[name] : undefined;
      files.push({
        name,
        version,
        ...(part?.inlineData
          ? { mimeType: part.inlineData.mimeType, data: part.inlineData.data }
          : {}),
        ...(typeof part?.text === 'string' ? { mimeType: 'text/plain', text: part.text } : {}),
      });
    }
  }
  return files;
}

function plus(a: SessionUsage, b: SessionUsage): SessionUsage {
  return {
    calls: a.calls + b.calls,
    promptTokens: a.promptTokens + b.promptTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    modelMs: a.modelMs + b.modelMs,
  };
}
