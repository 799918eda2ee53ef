// An agent's run between its before and after callbacks (ADK's `beforeAgentCallback` and
// `afterAgentCallback`, see callbacks.ts), as BaseAgent.runAsync runs it when it has any.
//
// What must stay true:
// - before: a Content returned skips the agent's run (no after callbacks either); that content
//   is the agent's event, with what the callbacks set in state. With no content, a state change
//   is an event of its own before the run (ADK's order). A resumed agent that had started does
//   not run them again: they ran when its run began.
// - after: only when the run finished (not failed, paused, stopped or ended); a Content returned
//   is the agent's last event, a state change without one an event of its own.
// - checkpoints: an agent's run that ends is marked by its `endOfAgent` checkpoint; the event a
//   callback adds at the end carries that mark itself, in the one write, so a resume never runs
//   the agent again after it, nor misses the callback's event.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { CallbackContext } from './callback-context.ts';
import { firstAnswer, type SingleAgentCallback } from './callbacks.ts';

export interface AgentCallbacks {
  readonly before: readonly SingleAgentCallback[];
  readonly after: readonly SingleAgentCallback[];
}

/** `run` (the agent's own behaviour) with its callbacks around it. */
export async function* withAgentCallbacks(
  ctx: InvocationContext,
  callbacks: AgentCallbacks,
  /** Resumed after its run had begun: its before callbacks ran then. */
  started: boolean,
  run: () => AsyncGenerator<Event, void>,
): AsyncGenerator<Event, void> {
  if (!started && callbacks.before.length > 0) {
    const event = await callbackEvent(ctx, callbacks.before);
    if (event?.content) {
      // The agent's run is over: its answer is the callback's.
      yield ctx.resumable ? ending(event) : event;
      return;
    }
    if (event) yield event;
  }
  if (callbacks.after.length === 0) {
    yield* run();
    return;
  }
  // The run's `endOfAgent` checkpoint waits until the after callbacks have answered.
  let checkpoint: Event | undefined;
  for await (const event of run()) {
    if (checkpoint) yield checkpoint;
    checkpoint = isEndOfAgent(ctx, event) ? event : undefined;
    if (!checkpoint) yield event;
  }
  const finished =
    !ctx.endInvocation && !ctx.isPausedBelow() && ctx.runConfig.signal?.aborted !== true;
  const event = finished ? await callbackEvent(ctx, callbacks.after) : undefined;
  if (event) yield checkpoint ? ending(event) : event;
  else if (checkpoint) yield checkpoint;
}

/**
 * Runs the callbacks until one returns a Content: the event that content makes, or, if none
 * did, an event carrying what they set in state (none when they set nothing).
 */
async function callbackEvent(
  ctx: InvocationContext,
  callbacks: readonly SingleAgentCallback[],
): Promise<Event | undefined> {
  const context = new CallbackContext(ctx);
  const content = await firstAnswer(callbacks, context);
  const { actions } = context;
  if (content) return ctx.createEvent({ content, actions });
  // ADK's rule: without content, an event only for a change of state.
  return Object.keys(actions.stateDelta).length > 0 ? ctx.createEvent({ actions }) : undefined;
}

function isEndOfAgent(ctx: InvocationContext, event: Event): boolean {
  return event.author === ctx.agent.name && event.actions.endOfAgent === true && !event.content;
}

/** `event`, marked as the end of its agent's run (the checkpoint it stands for). */
function ending(event: Event): Event {
  return { ...event, actions: { ...event.actions, endOfAgent: true } };
}
