// Agent checkpoints: how an agent records where it is in an invocation, and reads it back when
// the invocation resumes.
//
// Checkpoints are ordinary events (author: the agent; no content): `actions.agentState` says
// where a workflow agent is, `actions.endOfAgent` that the agent finished. A parent hands each
// child a scope, the part of the invocation after the parent's own latest checkpoint, so that an
// agent that runs several times in one invocation (inside a LoopAgent) reads only its current run.

import { createEventActions, type Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { agentToolScope } from './agent-tool-branches.ts';

export interface AgentResumeState {
  /** The agent wrote an event in its scope: it had started. */
  started: boolean;
  /** Its last checkpoint says it finished. */
  ended: boolean;
  /** Its latest `agentState`, if any (cleared by `endOfAgent`). */
  state: Record<string, unknown> | undefined;
  /** Where, in the resume log, the events after that checkpoint start. */
  afterState: number | undefined;
}

/** The state of `ctx.agent` in the run being resumed, or `undefined` for a fresh run. */
export function agentResumeState(ctx: InvocationContext): AgentResumeState | undefined {
  if (!ctx.isResuming) return undefined;
  const result: AgentResumeState = {
    started: false,
    ended: false,
    state: undefined,
    afterState: undefined,
  };
  // An agent called as a tool twice in one invocation reads only the run on its own branch.
  const scope = agentToolScope(ctx.branch);
  for (const { event, index } of ctx.resumeEvents()) {
    if (event.author !== ctx.agent.name || agentToolScope(event.branch) !== scope) continue;
    result.started = true;
    if (event.actions.endOfAgent) {
      result.ended = true;
      result.state = undefined;
    } else if (event.actions.agentState) {
      result.ended = false;
      result.state = event.actions.agentState;
      result.afterState = index + 1;
    } else {
      result.ended = false;
    }
  }
  return result;
}

/** A checkpoint event of `ctx.agent`: its state, or that it finished. */
export function agentStateEvent(
  ctx: InvocationContext,
  checkpoint: { state?: Record<string, unknown>; endOfAgent?: boolean },
): Event {
  return ctx.createEvent({
    actions: createEventActions({
      ...(checkpoint.state ? { agentState: checkpoint.state } : {}),
      ...(checkpoint.endOfAgent ? { endOfAgent: true } : {}),
    }),
  });
}

/** Whether an event pauses its agent: a call to a long-running tool, or a confirmation request. */
export function pausesAgent(event: Event): boolean {
  return (event.longRunningToolIds?.length ?? 0) > 0;
}
