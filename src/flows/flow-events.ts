// The events a flow writes about itself (its Agent Memory, in Flowise's words): ordinary events
// by the flow agent, with no content. Keys are snake_case, as ADK writes agent state.
//
// - Before a node runs: `agentState: { current_node, loop_counts, step }` (on the node's branch).
// - After it ran: `agentState: { completed_node, next, loop_counts, step, output? }` with the
//   node's state updates as an ordinary `stateDelta` holding the resulting values.
// - When the flow ends: `endOfAgent: true`.
//
// Resume replays these events (see replayFlow), so they alone say where a run stands.

import type { Event } from '../core/event.ts';
import type { FlowToken } from './frontier.ts';

export interface NodeCheckpointState extends Record<string, unknown> {
  current_node: string;
  loop_counts: Record<string, number>;
  step: number;
}

export interface NodeCompletionState extends Record<string, unknown> {
  completed_node: string;
  next: FlowToken[];
  loop_counts: Record<string, number>;
  step: number;
  output?: unknown;
}

export function checkpointOf(event: Event): NodeCheckpointState | undefined {
  const state = event.actions.agentState;
  return typeof state?.['current_node'] === 'string' ? (state as NodeCheckpointState) : undefined;
}

export function completionOf(event: Event): NodeCompletionState | undefined {
  const state = event.actions.agentState;
  return typeof state?.['completed_node'] === 'string' ? (state as NodeCompletionState) : undefined;
}

/** The index of the checkpoint the flow wrote before the latest run of a node (-1 if none). */
export function runStartIndex(
  events: readonly Event[],
  flowName: string,
  nodeId: string,
  branch: string | undefined,
): number {
  return events.findLastIndex(
    (event) =>
      event.author === flowName &&
      event.branch === branch &&
      checkpointOf(event)?.current_node === nodeId,
  );
}

/**
 * The output of the latest finished run of `nodeId` in the session, on any branch (its
 * `{{nodes.id}}`); undefined when it has not finished a run.
 */
export function latestNodeOutput(
  events: readonly Event[],
  flowName: string,
  nodeId: string,
): unknown {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author === flowName && completionOf(event)?.completed_node === nodeId)
      return completionOf(event)!.output;
  }
  return undefined;
}

/**
 * The output of the node that led to the latest run of `nodeId` (its `{{output}}`): the output
 * recorded by the last completion before that run whose next nodes include it.
 */
export function nodeInput(
  events: readonly Event[],
  flowName: string,
  nodeId: string,
  branch: string | undefined,
): unknown {
  const start = runStartIndex(events, flowName, nodeId, branch);
  for (let i = (start < 0 ? events.length : start) - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.author !== flowName) continue;
    const completion = completionOf(event);
    if (completion?.next.some((token) => token.node === nodeId)) return completion.output;
  }
  return undefined;
}

/** A node that had started and not finished when the run was cut off. */
export interface RunningNode {
  token: FlowToken;
  /** Where, in the resume log, the node's own events start (after its checkpoint). */
  scope: number;
  checkpointId: string;
}

export interface FlowProgress {
  /** Nodes waiting to run. */
  waiting: FlowToken[];
  running: RunningNode[];
  loopCounts: Record<string, number>;
  steps: number;
}

/**
 * Where a flow run stands, from the flow's own events in the part of the invocation being
 * resumed (`events`, with their index in the resume log). No flow event: a fresh start.
 */
export function replayFlow(
  flowName: string,
  events: readonly { event: Event; index: number }[],
  start: FlowToken,
): FlowProgress {
  const progress: FlowProgress = { waiting: [start], running: [], loopCounts: {}, steps: 0 };
  for (const { event, index } of events) {
    if (event.author !== flowName) continue;
    const checkpoint = checkpointOf(event);
    if (checkpoint) {
      // Every token waiting at the node was merged into this run (a join).
      const arrived = progress.waiting.filter((token) => token.node === checkpoint.current_node);
      progress.waiting = progress.waiting.filter((token) => token.node !== checkpoint.current_node);
      const input = arrived.length > 1 ? arrived.map((token) => token.input) : arrived[0]?.input;
      progress.running.push({
        token: {
          node: checkpoint.current_node,
          ...(event.branch ? { branch: event.branch } : {}),
          ...(input !== undefined ? { input } : {}),
        },
        scope: index + 1,
        checkpointId: event.id,
      });
      progress.loopCounts = { ...checkpoint.loop_counts };
      progress.steps = checkpoint.step;
      continue;
    }
    const completion = completionOf(event);
    if (!completion) continue;
    const at = progress.running.findIndex(
      (run) => run.token.node === completion.completed_node && run.token.branch === event.branch,
    );
    if (at >= 0) progress.running.splice(at, 1);
    const input = completion.output;
    progress.waiting.push(
      ...completion.next.map((token) => (input === undefined ? token : { ...token, input })),
    );
    progress.loopCounts = { ...completion.loop_counts };
  }
  return progress;
}
