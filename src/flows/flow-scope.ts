// What a flow's templates see while one of its nodes runs (templates.ts's scope, from the
// invocation: the state, the question, the node outputs, the start form's values and the item of
// the Iteration the node is inside), and the queue that stores a flow's completions one at a time.

import { textOf } from '../core/content.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { latestNodeOutput } from './flow-events.ts';
import { FORM_STATE_KEY } from './flow.ts';
import { iterationProgress, iterationScope } from './iteration.ts';
import type { TemplateScope } from './templates.ts';

/** What a flow's templates see while one of its nodes runs (`output`: what led there). */
export function flowScope(
  ctx: InvocationContext,
  flowName: string,
  output: unknown,
  /** The Iteration the node is inside, if any (`{{iteration.item}}`). */
  parent?: string,
): TemplateScope {
  const iteration =
    parent === undefined
      ? undefined
      : iterationScope(
          iterationProgress(ctx.activeView.peek(), flowName, parent, ctx.invocationId),
        );
  return {
    state: ctx.session.state,
    output,
    question: textOf(ctx.userContent),
    nodes: (nodeId) => latestNodeOutput(ctx.activeView.peek(), flowName, nodeId),
    form: ctx.session.state[FORM_STATE_KEY],
    ...(iteration ? { iteration } : {}),
  };
}

/** A queue of turns: `await turn()` waits for the turns before it, then returns its release. */
export class Serial {
  private last: Promise<void> = Promise.resolve();

  turn(): Promise<() => void> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const ready = this.last.then(() => release);
    this.last = done;
    return ready;
  }
}
