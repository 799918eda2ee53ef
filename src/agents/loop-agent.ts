// Runs its sub-agents in order, again and again, until one escalates or the iterations run out.

import { InvalidRequestError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { agentResumeState } from './agent-state.ts';
import { BaseAgent, type BaseAgentOptions } from './base-agent.ts';

export interface LoopAgentOptions extends BaseAgentOptions {
  /** At most this many passes over the sub-agents; unbounded when omitted. */
  maxIterations?: number;
}

/** Checkpoint: the sub-agent about to run, and how many passes were completed (ADK's keys). */
export interface LoopAgentState extends Record<string, unknown> {
  current_sub_agent: string;
  times_looped: number;
}

export class LoopAgent extends BaseAgent {
  readonly maxIterations: number | undefined;

  constructor(options: LoopAgentOptions) {
    super(options);
    const max = options.maxIterations;
    if (max !== undefined && !(Number.isInteger(max) && max > 0)) {
      throw new InvalidRequestError(
        `LoopAgent ${this.name}: maxIterations must be a whole number ≥ 1`,
      );
    }
    this.maxIterations = max;
  }

  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const resumed = agentResumeState(ctx);
    const saved = resumed?.state as LoopAgentState | undefined;
    let resumeAt = this.subAgents.findIndex((sub) => sub.name === saved?.current_sub_agent);
    let pass = resumeAt >= 0 ? (saved?.times_looped ?? 0) : 0;
    // The sub-agent being resumed may have escalated before the interruption: that event is
    // stored, not yielded again, and still ends the loop once the sub-agent finishes.
    const escalatedBefore =
      resumeAt >= 0 &&
      ctx
        .resumeEvents()
        .some(({ event, index }) => index >= (resumed?.afterState ?? 0) && event.actions.escalate);
    let escalated = false;
    for (; !escalated && (this.maxIterations === undefined || pass < this.maxIterations); pass++) {
      for (let i = Math.max(0, resumeAt); i < this.subAgents.length && !escalated; i++) {
        const sub = this.subAgents[i]!;
        const resume = i === resumeAt;
        if (!resume && ctx.resumable) {
          yield this.createAgentStateEvent(ctx, {
            state: { current_sub_agent: sub.name, times_looped: pass },
          });
        }
        // An escalation lets the sub-agent that escalated finish, then ends the loop.
        for await (const event of sub.runAsync(this.childContext(ctx, resume))) {
          yield event;
          if (event.actions.escalate) escalated = true;
        }
        if (resume && escalatedBefore) escalated = true;
        if (ctx.isPausedBelow() || ctx.endInvocation) return;
      }
      resumeAt = -1;
      if (this.subAgents.length === 0) break;
    }
    if (ctx.resumable) yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }
}
