// Runs its sub-agents one after another, in order.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { BaseAgent } from './base-agent.ts';

/** Checkpoint: the sub-agent about to run (ADK's key). */
export interface SequentialAgentState extends Record<string, unknown> {
  current_sub_agent: string;
}

export class SequentialAgent extends BaseAgent {
  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const saved = this.loadAgentState<SequentialAgentState>(ctx);
    const resumeAt = this.subAgents.findIndex((sub) => sub.name === saved?.current_sub_agent);
    for (let i = Math.max(0, resumeAt); i < this.subAgents.length; i++) {
      const sub = this.subAgents[i]!;
      const resume = i === resumeAt;
      if (!resume && ctx.resumable) {
        yield this.createAgentStateEvent(ctx, { state: { current_sub_agent: sub.name } });
      }
      yield* sub.runAsync(this.childContext(ctx, resume));
      if (ctx.isPausedBelow() || ctx.endInvocation) return;
    }
    if (ctx.resumable) yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }
}
