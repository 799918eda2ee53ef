// What an LlmAgent still owes when its run is resumed: calls it made that were never answered,
// calls a human has since confirmed or rejected, and calls it is still waiting for.

import type { FunctionCall } from '../core/content.ts';
import type { Event, ToolConfirmation } from '../core/event.ts';
import {
  REQUEST_CONFIRMATION_FUNCTION,
  originalCallOf,
  parseConfirmation,
} from './confirmation.ts';

export interface PendingCalls {
  /** Calls to run now: the agent's own unanswered calls, and calls a human has answered. */
  calls: FunctionCall[];
  /** Call id → the human's answer, for the calls above that were paused for confirmation. */
  confirmations: Map<string, ToolConfirmation>;
  /** Ids the agent waits for (long-running tools, confirmations) that have no answer yet. */
  awaiting: string[];
}

/**
 * The pending calls of agent `agentName` in `events` (its part of the invocation, on its
 * branch). Only the agent's own calls are ever run: never a call another agent made.
 * A call counts as answered by the agent's own response; a long-running call or a confirmation
 * request only by a user's response.
 */
export function pendingCalls(agentName: string, events: readonly Event[]): PendingCalls {
  const userAnswers = new Map<string, { response: Record<string, unknown>; index: number }>();
  const ownAnswers = new Map<string, number>();
  events.forEach((event, index) => {
    for (const part of event.content?.parts ?? []) {
      const response = part.functionResponse;
      if (response?.id === undefined) continue;
      if (event.author === 'user')
        userAnswers.set(response.id, { response: response.response, index });
      else if (event.author === agentName) ownAnswers.set(response.id, index);
    }
  });

  const pending: PendingCalls = { calls: [], confirmations: new Map(), awaiting: [] };
  const awaitingConfirmation = new Set<string>();
  const own = events.filter((event) => event.author === agentName);
  // Confirmation requests first: they decide how their original calls are run.
  for (const event of own) {
    for (const part of event.content?.parts ?? []) {
      const request = part.functionCall;
      if (request?.name !== REQUEST_CONFIRMATION_FUNCTION || request.id === undefined) continue;
      const original = originalCallOf(request);
      if (!original?.id) continue;
      const answer = userAnswers.get(request.id);
      if (!answer) {
        pending.awaiting.push(request.id);
        awaitingConfirmation.add(original.id);
      } else if ((ownAnswers.get(original.id) ?? -1) < answer.index) {
        pending.calls.push(original);
        pending.confirmations.set(original.id, parseConfirmation(answer.response));
      }
    }
  }
  const planned = new Set(pending.calls.map((call) => call.id));
  for (const event of own) {
    const longRunning = new Set(event.longRunningToolIds ?? []);
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (!call?.id || call.name === REQUEST_CONFIRMATION_FUNCTION || planned.has(call.id))
        continue;
      if (longRunning.has(call.id)) {
        if (!userAnswers.has(call.id)) pending.awaiting.push(call.id);
      } else if (!ownAnswers.has(call.id) && !awaitingConfirmation.has(call.id)) {
        pending.calls.push(call);
        planned.add(call.id);
      }
    }
  }
  return pending;
}
