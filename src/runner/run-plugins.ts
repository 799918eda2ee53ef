// The Runner's side of its plugins (src/plugins): a new user message, the start of a run, each
// event of it. The agents run the rest (agent, model and tool callbacks) themselves.
//
// What must stay true: a runner without plugins never comes here (runner.ts checks first), and
// a run whose plugins do not look at events pays nothing per event (no layer around the agent's
// events: the runner's own loop asks `pluginEvent` only when a plugin watches them).

import type { Content } from '../core/content.ts';
import { createEvent, type Event } from '../core/event.ts';
import type { PluginManager } from '../plugins/plugin-manager.ts';
import type { InvocationContext } from './invocation-context.ts';
import { checkMessage } from './runner-checks.ts';

type Maybe<T> = T | undefined | Promise<T | undefined>;

/**
 * What the plugins make of a new message from the user (ADK's `onUserMessageCallback`): the
 * message to store instead, checked as any message is, or `undefined` to keep it. At once when
 * the plugins answered at once (a plugin is there at every turn: issue 32 wants it cheap).
 */
export function userMessageOf(
  plugins: PluginManager,
  ctx: InvocationContext,
  userMessage: Content,
): Maybe<Content> {
  if (!plugins.hasPlugins) return undefined;
  const replaced = plugins.runOnUserMessageCallback({ invocationContext: ctx, userMessage });
  const checked = (content: Content | undefined): Content | undefined =>
    content ? { role: 'user', parts: checkMessage(content).parts } : undefined;
  return replaced instanceof Promise ? replaced.then(checked) : checked(replaced);
}

/**
 * What `beforeRunCallback` says before the agent runs: a Content returned is the run's only
 * answer, authored `model` as ADK's is, and the agent does not run.
 */
export function beforeRun(plugins: PluginManager, ctx: InvocationContext): Maybe<Event> {
  const early = plugins.runBeforeRunCallback({ invocationContext: ctx });
  const eventOf = (content: Content | undefined): Event | undefined =>
    content && createEvent({ invocationId: ctx.invocationId, author: 'model', content });
  return early instanceof Promise ? early.then(eventOf) : eventOf(early);
}

/** An event of the run as `onEventCallback` leaves it (at once when the plugins answer so). */
export function pluginEvent(
  plugins: PluginManager,
  ctx: InvocationContext,
  event: Event,
): Event | Promise<Event> {
  const replaced = plugins.runOnEventCallback({ invocationContext: ctx, event });
  if (replaced instanceof Promise) return replaced.then((r) => (r ? sameSlot(event, r) : event));
  return replaced ? sameSlot(event, replaced) : event;
}

/** `replaced` in the place of `event`: its id, invocation and time (ADK keeps them alike). */
function sameSlot(event: Event, replaced: Event): Event {
  return {
    ...replaced,
    id: event.id,
    invocationId: event.invocationId,
    timestamp: event.timestamp,
    author: replaced.author || event.author,
    ...(replaced.branch !== undefined
      ? { branch: replaced.branch }
      : event.branch !== undefined
        ? { branch: event.branch }
        : {}),
    actions: replaced.actions ?? event.actions,
  };
}
