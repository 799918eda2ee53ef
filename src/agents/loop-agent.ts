// Runs its sub-agents in order, again and again, until one escalates or the iterations run out.

import { InvalidRequestError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { BaseAgent, type BaseAgentOptions } from './base-agent.ts';

export interface LoopAgentOptions extends BaseAgentOptions {
  /** At most this many passes over the sub-agents; unbounded when omitted. */
  maxIterations?: number;
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
    for (let pass = 0; this.maxIterations === undefined || pass < this.maxIterations; pass++) {
      for (const sub of this.subAgents) {
        let escalated = false;
        for await (const event of sub.runAsync(ctx)) {
          yield event;
          if (event.actions.escalate) escalated = true;
        }
        // An escalation lets the sub-agent that escalated finish, then ends the loop.
        if (escalated || ctx.endInvocation) return;
      }
      if (this.subAgents.length === 0) return;
    }
  }
}
