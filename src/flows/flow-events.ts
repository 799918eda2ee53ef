// The events a flow writes about itself (its Agent Memory, in Flowise's words): ordinary events
// by the flow agent, with no content. Keys are snake_case, as ADK writes agent state.
//
// - Before a node runs: `agentState: { current_node, loop_counts, step }` (on the node's branch).
// - After it ran: `agentState: { completed_node, next, loop_counts, step, output? }` with the
//   node's state updates as an ordinary `stateDelta` holding the resulting values.
// - When the flow ends: `endOfAgent: true`.
//
// Resume reads these events back (flow-frontier.ts's reading, flowCounters), so they alone say
// where a run stands.

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

/** A flow's counters: the steps it took and each loop's count, in the run so far. */
export interface FlowCounters {
  steps: number;
  loopCounts: Record<string, number>;
}

/**
 * Where a flow's counters stand, from its own events in the part of the invocation being resumed
 * (none: a fresh start). Which nodes finished, and where the run goes on, the workflow engine
 * reads from the same events (flow-frontier.ts's reading).
 */
export function flowCounters(
  flowName: string,
  events: readonly { event: Event; index: number }[],
): FlowCounters {
  const counters: FlowCounters = { steps: 0, loopCounts: {} };
  for (const { event } of events) {
    if (event.author !== flowName) continue;
    const checkpoint = checkpointOf(event);
    if (checkpoint) counters.steps = checkpoint.step;
    const state = checkpoint ?? completionOf(event);
    if (state) counters.loopCounts = { ...state.loop_counts };
  }
  return counters;
}
