// A flow's Human Input node (Flowise V2's): it asks the user as every approval is asked, with an
// `adk_request_confirmation` call whose original call is `human_input` (its input shown) and whose
// hint is the node's description, so the same card, resume and rewind apply; once answered, the
// run proceeds or rejects, and the user's feedback (if any) is the node's output.

import { functionCallsOf, functionResponsesOf, textOf } from '../core/content.ts';
import type { Event, ToolConfirmation } from '../core/event.ts';
import { newFunctionCallId } from '../core/ids.ts';
import {
  HUMAN_INPUT_CALL,
  REQUEST_CONFIRMATION_FUNCTION,
  confirmationRequestEvent,
  parseConfirmation,
} from '../agents/confirmation.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { NodeContext } from '../workflow/node-context.ts';
import type { HumanInputNode } from './flow.ts';
import { renderTemplate, type TemplateScope } from './templates.ts';

/** What the user answered: which way, and the node's output. */
export interface HumanAnswer {
  proceed: boolean;
  output: unknown;
}

/**
 * The user's feedback, said in the conversation (Flowise adds it to the chat history as the user's
 * words): an event of the node, so the nodes after it see it.
 */

/**
 * Asks (a fresh run: the request is yielded and the node waits), or reads the answer (a run that
 * goes on after the pause); undefined while it waits.
 */
export function* askHuman(
  ctx: NodeContext,
  invocation: InvocationContext,
  node: HumanInputNode,
  input: unknown,
  scope: TemplateScope,
): Generator<Event, HumanAnswer | undefined> {
  if (!ctx.resumed) {
    const original = {
      id: newFunctionCallId(),
      name: HUMAN_INPUT_CALL,
      args: input === undefined ? {} : { input },
    };
    const hint = renderTemplate(node.description, scope);
    const request = confirmationRequestEvent(invocation, [original], {
      [original.id]: { hint, confirmed: false },
    })!;
    request.author = node.id;
    yield request;
    return undefined;
  }
  const answer = humanAnswer(
    node.id,
    invocation.resumeEvents().map(({ event }) => event),
    ctx.resumed.from,
  );
  if (!answer) {
    ctx.interruptIds.push(...ctx.resumed.open);
    return undefined;
  }
  const feedback = feedbackOf(answer.payload);
  const log = invocation.resumeEvents().map(({ event }) => event);
  // Said once: a run cut off after saying it goes on without saying it again.
  if (
    feedback &&
    !log
      .slice(ctx.resumed.from)
      .some((event) => event.author === node.id && textOf(event.content) === feedback)
  )
    yield invocation.createEvent({
      author: node.id,
      content: { role: 'model', parts: [{ text: feedback }] },
    });
  return { proceed: answer.confirmed, output: feedback ?? input };
}

/** The user's answer to the latest request of a Human Input node, in the log from `from` on. */
function humanAnswer(
  nodeId: string,
  log: readonly Event[],
  from: number,
): ToolConfirmation | undefined {
  const events = log.slice(from);
  const request = events
    .filter((event) => event.author === nodeId)
    .flatMap((event) => functionCallsOf(event.content))
    .findLast((call) => call.name === REQUEST_CONFIRMATION_FUNCTION);
  if (!request?.id) return undefined;
  const response = events
    .filter((event) => event.author === 'user')
    .flatMap((event) => functionResponsesOf(event.content))
    .find((answer) => answer.id === request.id);
  return response && parseConfirmation(response.response);
}

/** The user's feedback: a text, or Flowise's `{ feedback }`. */
function feedbackOf(payload: unknown): string | undefined {
  const feedback =
    typeof payload === 'object' && payload !== null && 'feedback' in payload
      ? (payload as { feedback: unknown }).feedback
      : payload;
  return typeof feedback === 'string' && feedback.trim() ? feedback : undefined;
}
