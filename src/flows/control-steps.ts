// What a flow's Start and Loop nodes do (flow-workflow.ts runs them as it runs every node).

import { textOf } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import { DEFAULT_MAX_LOOPS, type Flow, type LoopNode, type StartNode } from './flow.ts';
import { defaultStateDelta } from './reducers.ts';
import { renderTemplate, type TemplateScope } from './templates.ts';

/** What a node run decided: its output, where the flow goes next, and its state changes. */
export interface StepResult {
  output: unknown;
  targets: string[];
  stateDelta?: Record<string, unknown>;
}

/** Start: the state's defaults on a new session, and moderation of the user's message. */
export async function* startStep(
  ctx: InvocationContext,
  node: StartNode,
  flow: Flow,
  targets: string[],
  scope: TemplateScope,
): AsyncGenerator<Event, StepResult> {
  const stateDelta = defaultStateDelta(flow.state ?? [], ctx.session.state);
  const question = textOf(ctx.userContent).toLowerCase();
  const blocked = node.moderation?.blocked.some(
    (phrase) => phrase.trim() && question.includes(phrase.trim().toLowerCase()),
  );
  if (!blocked) return { output: undefined, targets, stateDelta };
  const message = node.moderation?.message ?? 'Sorry, I cannot help with that message.';
  yield say(ctx, node.id, renderTemplate(message, scope));
  return { output: undefined, targets: [], stateDelta };
}

/**
 * Loop: back to `to` while under its bound (`loopCounts` counts the run's jumps), then its other
 * edges (`others`), or its fallback reply.
 */
export async function* loopStep(
  ctx: InvocationContext,
  node: LoopNode,
  loopCounts: Record<string, number>,
  input: unknown,
  others: string[],
  scope: TemplateScope,
): AsyncGenerator<Event, StepResult> {
  const done = loopCounts[node.id] ?? 0;
  if (done < (node.maxLoops ?? DEFAULT_MAX_LOOPS)) {
    loopCounts[node.id] = done + 1;
    return { output: input, targets: [node.to] };
  }
  if (others.length > 0) return { output: input, targets: others };
  const text = node.fallback ?? 'I could not finish this within the allowed number of tries.';
  yield say(ctx, node.id, renderTemplate(text, scope));
  return { output: input, targets: [] };
}

function say(ctx: InvocationContext, author: string, text: string): Event {
  return ctx.createEvent({ author, content: { role: 'model', parts: [{ text }] } });
}
