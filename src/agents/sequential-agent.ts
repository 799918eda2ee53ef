// Runs its sub-agents one after another, in order.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { BaseAgent } from './base-agent.ts';

export class SequentialAgent extends BaseAgent {
  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    for (const sub of this.subAgents) {
      yield* sub.runAsync(ctx);
      if (ctx.endInvocation) return;
    }
  }
}
