// Tool confirmation in ADK's wire format: a call paused for a human shows as a function call
// named `adk_request_confirmation` (its id listed in `longRunningToolIds`), answered by a user
// function response with that id and `{ confirmed, payload? }`.

import type { FunctionCall } from '../core/content.ts';
import type { Event, ToolConfirmation } from '../core/event.ts';
import { newFunctionCallId } from '../core/ids.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

export const REQUEST_CONFIRMATION_FUNCTION = 'adk_request_confirmation';

/**
 * The call a flow's Human Input node asks the user to confirm (no tool runs: the answer chooses
 * the way on, proceed or reject), so that it is asked as every approval is.
 */
export const HUMAN_INPUT_CALL = 'human_input';

export const CONFIRMATION_REQUIRED =
  'This tool call requires confirmation, please approve or reject.';

const REJECTED = 'The user rejected this tool call.';

/** What the model is told when the human rejected a call. */
export function rejectionMessage(confirmation: ToolConfirmation): string {
  const feedback =
    confirmation.payload === undefined || confirmation.payload === null
      ? ''
      : ` Their feedback: ${typeof confirmation.payload === 'string' ? confirmation.payload : JSON.stringify(confirmation.payload)}`;
  return `${REJECTED}${feedback}`;
}

/** Whether a tool's response says a human rejected the call (it was declined, not failed). */
export function isRejection(response: Record<string, unknown>): boolean {
  return typeof response.error === 'string' && response.error.startsWith(REJECTED);
}

/**
 * The event asking a human to confirm each call whose tool asked for it (in `requested`, by
 * call id), or `undefined` when none did.
 */
export function confirmationRequestEvent(
  ctx: InvocationContext,
  calls: readonly FunctionCall[],
  requested: Readonly<Record<string, ToolConfirmation>> | undefined,
): Event | undefined {
  if (!requested) return undefined;
  const parts = calls
    .filter((call) => call.id !== undefined && requested[call.id])
    .map((call) => {
      const { hint, payload } = requested[call.id!]!;
      return {
        functionCall: {
          id: newFunctionCallId(),
          name: REQUEST_CONFIRMATION_FUNCTION,
          args: {
            originalFunctionCall: { id: call.id, name: call.name, args: call.args },
            toolConfirmation: {
              hint: hint ?? defaultHint(call.name),
              confirmed: false,
              ...(payload !== undefined ? { payload } : {}),
            },
          },
        },
      };
    });
  if (parts.length === 0) return undefined;
  return ctx.createEvent({
    content: { role: 'model', parts },
    longRunningToolIds: parts.map((part) => part.functionCall.id),
  });
}

function defaultHint(name: string): string {
  return `Please approve or reject the call to ${name}.`;
}

/** The original call a confirmation request stands for. */
export function originalCallOf(request: FunctionCall): FunctionCall | undefined {
  const original = (request.args as { originalFunctionCall?: FunctionCall }).originalFunctionCall;
  return original && typeof original.name === 'string'
    ? { ...original, args: original.args ?? {} }
    : undefined;
}

/**
 * A human's answer, from the response of a confirmation request. ADK's web UI wraps it as
 * `{ response: "<json>" }`; anything without `confirmed: true` counts as a rejection.
 */
export function parseConfirmation(response: Record<string, unknown>): ToolConfirmation {
  let answer: Record<string, unknown> = response;
  if (typeof response.response === 'string') {
    try {
      answer = JSON.parse(response.response) as Record<string, unknown>;
    } catch {
      // Not JSON: not an approval either. Treated as a rejection below.
    }
  }
  return {
    confirmed: answer.confirmed === true,
    ...(answer.payload !== undefined ? { payload: answer.payload } : {}),
  };
}
