// An agent's run between its before and after callbacks (ADK's `beforeAgentCallback` and
// `afterAgentCallback`, see callbacks.ts), as BaseAgent.runAsync runs it when it has any. The
// pieces here answer at once when the callbacks did (most answer nothing, at once), and the run's
// events pass through BaseAgent.runAsync's own loop, not a generator more: a plugin's callbacks
// are there for every agent of every turn (issue 32: a plugin that does nothing costs ≤ 5%).
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

type Maybe<T> = T | undefined | Promise<T | undefined>;

/**
 * What the before callbacks make before the agent's run (none when resumed after it began):
 * an event with content ends the agent's run there (`endsRun`), one without is a state change.
 */
export function beforeAgentEvent(
  ctx: InvocationContext,
  callbacks: AgentCallbacks,
  started: boolean,
): Maybe<Event> {
  if (started || callbacks.before.length === 0) return undefined;
  return callbackEvent(ctx, callbacks.before);
}

/** Whether the before callbacks' event is the agent's answer, its run skipped. */
export function endsRun(ctx: InvocationContext, event: Event): Event | undefined {
  if (!event.content) return undefined;
  return ctx.resumable ? ending(event) : event;
}

/**
 * What the after callbacks add once the run is over: the event to end it with, `checkpoint`
 * (its `endOfAgent` mark, held back by the caller) carried by the callbacks' event if they made
 * one; the checkpoint alone if they made none or the run did not finish.
 */
export function afterAgentEvent(
  ctx: InvocationContext,
  callbacks: AgentCallbacks,
  checkpoint: Event | undefined,
): Maybe<Event> {
  const finished =
    !ctx.endInvocation && !ctx.isPausedBelow() && ctx.runConfig.signal?.aborted !== true;
  if (!finished) return checkpoint;
  const event = callbackEvent(ctx, callbacks.after);
  const last = (made: Event | undefined) =>
    made ? (checkpoint ? ending(made) : made) : checkpoint;
  return event instanceof Promise ? event.then(last) : last(event);
}

/**
 * Whether `event` is the agent's `endOfAgent` checkpoint, which waits for the after callbacks
 * (their event, if any, carries its mark).
 */
export function isEndOfAgent(ctx: InvocationContext, event: Event): boolean {
  return event.author === ctx.agent.name && event.actions.endOfAgent === true && !event.content;
}

/**
 * Runs the callbacks until one returns a Content: the event that content makes, or, if none
 * did, an event carrying what they set in state (none when they set nothing).
 */
function callbackEvent(
  ctx: InvocationContext,
  callbacks: readonly SingleAgentCallback[],
): Maybe<Event> {
  const context = new CallbackContext(ctx);
  const content = firstAnswer(callbacks, context);
  return content instanceof Promise
    ? content.then((answer) => eventOf(ctx, context, answer))
    : eventOf(ctx, context, content);
}

function eventOf(
  ctx: InvocationContext,
  { actions }: CallbackContext,
  content: Event['content'] | undefined,
): Event | undefined {
  if (content) return ctx.createEvent({ content, actions });
  // ADK's rule: without content, an event only for a change of state.
  return Object.keys(actions.stateDelta).length > 0 ? ctx.createEvent({ actions }) : undefined;
}

/** `event`, marked as the end of its agent's run (the checkpoint it stands for). */
function ending(event: Event): Event {
  return { ...event, actions: { ...event.actions, endOfAgent: true } };
}
