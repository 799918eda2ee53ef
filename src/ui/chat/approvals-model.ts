// The calls waiting for the user's approval, read from the active events (so they survive a
// reload, and a rewind makes them go away).

import {
  HUMAN_INPUT_CALL,
  REQUEST_CONFIRMATION_FUNCTION,
  originalCallOf,
} from '../../agents/confirmation.ts';
import type { Event, ToolConfirmation } from '../../core/event.ts';

export interface PendingApproval {
  /** The id of the `adk_request_confirmation` call, which the answer must carry. */
  requestId: string;
  invocationId: string;
  /** The agent that asked. */
  author: string;
  toolName: string;
  args: Record<string, unknown>;
  hint: string;
  payload?: unknown;
  /** A flow's Human Input: no tool runs; the user proceeds or rejects. */
  humanInput?: boolean;
}

export function pendingApprovals(active: readonly Event[]): PendingApproval[] {
  const answered = new Set<string>();
  for (const event of active) {
    if (event.author !== 'user') continue;
    for (const part of event.content?.parts ?? []) {
      if (part.functionResponse?.id) answered.add(part.functionResponse.id);
    }
  }
  const pending: PendingApproval[] = [];
  for (const event of active) {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.name !== REQUEST_CONFIRMATION_FUNCTION || !call.id || answered.has(call.id))
        continue;
      const original = originalCallOf(call);
      const confirmation = (
        call.args as { toolConfirmation?: ToolConfirmation & { hint?: string } }
      ).toolConfirmation;
      pending.push({
        requestId: call.id,
        invocationId: event.invocationId,
        author: event.author,
        toolName: original?.name ?? 'a tool',
        args: original?.args ?? {},
        hint: approvalHint(confirmation?.hint, original?.name ?? 'a tool'),
        ...(confirmation?.payload !== undefined ? { payload: confirmation.payload } : {}),
        ...(original?.name === HUMAN_INPUT_CALL ? { humanInput: true } : {}),
      });
    }
  }
  return pending;
}

/**
 * ADK's own hint, when a tool asks for confirmation without one of its own, is written for
 * developers ("Please approve or reject the tool call send_coins() by responding with a
 * FunctionResponse with an expected ToolConfirmation payload."): the card says it for people.
 */
const DEVELOPER_HINT = /\bFunctionResponse\b|\bToolConfirmation\b/;

/** The sentence an approval card leads with: the tool's own hint, unless it is ADK's default. */
export function approvalHint(hint: string | undefined, toolName: string): string {
  if (!hint?.trim() || DEVELOPER_HINT.test(hint))
    return `Approve this call of ${toolName} to let it run, or reject it: the agent is told either way.`;
  return hint;
}
