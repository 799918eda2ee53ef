// A flow session's checkpoints, in Flowise's terms (its Agent Memory table): the thread is the
// session, and every node run is a checkpoint with its parent, its node and the state after it.
//
// A flow writes, before each node runs, a checkpoint event (`agentState.current_node`, and the
// `branch` of a parallel branch), and after it a completion event by the same author
// (`agentState.completed_node`, the node's `stateDelta`). Only the active events count: a rewound
// node run is forgotten here as it is by the flow.

import { activeEvents } from '../../core/active-events.ts';
import type { Event } from '../../core/event.ts';
import { previewOf, type Preview } from '../common/preview.ts';

export type CheckpointStatus = 'done' | 'running' | 'interrupted';

export interface CheckpointRow {
  /** The checkpoint event's id: what a rewind goes back to just after. */
  checkpointId: string;
  /** The checkpoint before this one in the thread. */
  parentId: string | undefined;
  /** Flowise's thread id: the session. */
  threadId: string;
  invocationId: string;
  /** The flow's agent (the author of its checkpoints). */
  author: string;
  node: string;
  branch: string | undefined;
  step: number | undefined;
  status: CheckpointStatus;
  /** The session state right after the node completed; the state now if it has not. */
  stateAfter: Record<string, unknown>;
}

export interface CheckpointOptions {
  /** The session is being run now (by this tab or another). */
  running: boolean;
  /** The state just before the first event given (default: none, the log's start). */
  stateBefore?: Record<string, unknown>;
}

/** The checkpoint rows of a session's raw log (or of the end of it), oldest first. */
export function checkpointRows(
  log: readonly Event[],
  sessionId: string,
  { running, stateBefore = {} }: CheckpointOptions,
): CheckpointRow[] {
  const active = activeEvents(log);
  const lastInvocation = active.at(-1)?.invocationId;
  const rows: CheckpointRow[] = [];
  /** Rows waiting for their completion, by `author|invocation|branch|node`. */
  const open = new Map<string, CheckpointRow[]>();
  let state: Record<string, unknown> = stateBefore;

  for (const event of active) {
    state = applied(state, event.actions.stateDelta);
    const agentState = event.actions.agentState;
    const started = agentState?.current_node;
    if (typeof started === 'string') {
      const row: CheckpointRow = {
        checkpointId: event.id,
        parentId: rows.at(-1)?.checkpointId,
        threadId: sessionId,
        invocationId: event.invocationId,
        author: event.author,
        node: started,
        branch: event.branch,
        step: typeof agentState?.step === 'number' ? agentState.step : undefined,
        status: running && event.invocationId === lastInvocation ? 'running' : 'interrupted',
        stateAfter: state,
      };
      rows.push(row);
      const key = keyOf(event, started);
      open.set(key, [...(open.get(key) ?? []), row]);
    }
    const completed = agentState?.completed_node;
    if (typeof completed === 'string') {
      const waiting = open.get(keyOf(event, completed));
      const row = waiting?.shift();
      if (row) {
        row.status = 'done';
        row.stateAfter = state;
      }
    }
  }
  // A node still open shows the state as it is now.
  for (const row of rows) if (row.status !== 'done') row.stateAfter = state;
  return rows;
}

/**
 * The checkpoint rows of an ADK 2.0 workflow's session: one per node run (the events at
 * `<workflow>.<node>…`), done once the node gave its output. Rewinding to one goes back to just
 * after the event before the node's first, so that a resume runs that node again.
 */
export function workflowCheckpointRows(
  log: readonly Event[],
  sessionId: string,
  workflow: string,
  { running, stateBefore = {} }: CheckpointOptions,
): CheckpointRow[] {
  const active = activeEvents(log);
  const lastInvocation = active.at(-1)?.invocationId;
  const prefix = `${workflow}.`;
  const rows: CheckpointRow[] = [];
  const open = new Map<string, CheckpointRow>();
  let state: Record<string, unknown> = stateBefore;
  let previous: Event | undefined;
  for (const event of active) {
    state = applied(state, event.actions.stateDelta);
    const path = event.nodeInfo?.path;
    const node = path?.startsWith(prefix)
      ? path.slice(prefix.length).split('.')[0]!.split('@')[0]!
      : undefined;
    if (node !== undefined && previous) {
      const key = JSON.stringify([event.invocationId, node]);
      let row = open.get(key);
      if (!row) {
        row = {
          checkpointId: previous.id,
          parentId: rows.at(-1)?.checkpointId,
          threadId: sessionId,
          invocationId: event.invocationId,
          author: workflow,
          node,
          branch: event.branch,
          step: undefined,
          status: running && event.invocationId === lastInvocation ? 'running' : 'interrupted',
          stateAfter: state,
        };
        rows.push(row);
        open.set(key, row);
      }
      if (event.output !== undefined && path === `${prefix}${node}`) {
        row.status = 'done';
        row.stateAfter = state;
        open.delete(key);
      }
    }
    previous = event;
  }
  for (const row of rows) if (row.status !== 'done') row.stateAfter = state;
  return rows;
}

function keyOf(event: Event, node: string): string {
  return JSON.stringify([event.author, event.invocationId, event.branch ?? '', node]);
}

/** The state with a delta applied (a `null` removes the key); the same object if none. */
function applied(
  state: Record<string, unknown>,
  delta: Record<string, unknown> | undefined,
): Record<string, unknown> {
  if (!delta || Object.keys(delta).length === 0) return state;
  const next = { ...state };
  for (const [key, value] of Object.entries(delta)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return next;
}

/** The accessible name of a row's rewind button, e.g. "Rewind to before billing (step 4)". */
export function rewindLabel(row: Pick<CheckpointRow, 'node' | 'step' | 'branch'>): string {
  const where = [
    row.step === undefined ? undefined : `step ${row.step}`,
    row.branch ? `branch ${row.branch}` : undefined,
  ].filter(Boolean);
  return `Rewind to before ${row.node}${where.length ? ` (${where.join(', ')})` : ''}`;
}

/** The state shown in a row: the start of its compact JSON (never the whole of a long state). */
export function stateSummary(state: Record<string, unknown>, max = 160): Preview {
  return previewOf(state, { max });
}

export interface FlowProgress {
  /** The invocation the graph shows: the last one that ran a node. */
  invocationId: string | undefined;
  /** Nodes started and not completed in it: running now, or where it stopped. */
  current: string[];
  /** Nodes completed in it. */
  visited: string[];
  /** The nodes in `current` are running now (else the run stopped there). */
  running: boolean;
}

/** What the flow graph highlights, from the checkpoint rows. */
export function flowProgress(rows: readonly CheckpointRow[]): FlowProgress {
  const invocationId = rows.at(-1)?.invocationId;
  const ofRun = rows.filter((row) => row.invocationId === invocationId);
  const unique = (nodes: string[]) => [...new Set(nodes)];
  return {
    invocationId,
    current: unique(ofRun.filter((row) => row.status !== 'done').map((row) => row.node)),
    visited: unique(ofRun.filter((row) => row.status === 'done').map((row) => row.node)),
    running: ofRun.some((row) => row.status === 'running'),
  };
}
