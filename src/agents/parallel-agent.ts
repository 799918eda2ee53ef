// Runs its sub-agents concurrently, each on its own branch.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { BaseAgent } from './base-agent.ts';

export class ParallelAgent extends BaseAgent {
  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    // Resuming after the checkpoint: sub-agents that had ended are skipped, the others resume.
    const resume = this.loadAgentState(ctx) !== undefined;
    if (!resume && ctx.resumable) yield this.createAgentStateEvent(ctx, { state: {} });
    const child = this.childContext(ctx, resume);
    const runs = this.subAgents.map((sub) =>
      sub.runAsync(child.forAgent(sub, this.branchOf(ctx, sub))),
    );
    yield* mergeRuns(runs);
    if (ctx.isPausedBelow() || ctx.endInvocation) return;
    if (ctx.resumable) yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }

  /** `parent.child`, under the branch the parallel agent itself runs on. */
  private branchOf(ctx: InvocationContext, sub: BaseAgent): string {
    const own = `${this.name}.${sub.name}`;
    return ctx.branch ? `${ctx.branch}.${own}` : own;
  }
}

/**
 * Interleaves several event streams as their events come. What must stay true:
 * - a stream is resumed only after its previous event was consumed downstream (and so stored),
 *   so each sub-agent sees its own events in the session before it goes on;
 * - the others keep working meanwhile (their pending `next()` stays in flight);
 * - if one stream fails, the others are closed and the failure is rethrown;
 * - if the consumer stops early, every stream is closed.
 */
export async function* mergeRuns(runs: AsyncGenerator<Event, void>[]): AsyncGenerator<Event, void> {
  type Pending = Promise<{ index: number; result: IteratorResult<Event, void> }>;
  const pending = new Map<number, Pending>();
  const pull = (index: number) => {
    const next: Pending = runs[index]!.next().then((result) => ({ index, result }));
    // Reported through the race below, or moot once we have stopped: never unhandled.
    next.catch(() => undefined);
    pending.set(index, next);
  };
  runs.forEach((_, index) => pull(index));
  try {
    while (pending.size > 0) {
      const { index, result } = await Promise.race(pending.values());
      if (result.done) {
        pending.delete(index);
        continue;
      }
      yield result.value;
      pull(index);
    }
  } finally {
    pending.clear();
    await Promise.allSettled(runs.map((run) => run.return(undefined)));
  }
}
