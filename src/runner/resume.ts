// Finding what to resume: which invocation a user's answer belongs to, where it started, and
// whether it has finished. All of it reads the active events.

import type { BaseAgent } from '../agents/base-agent.ts';
import { functionResponsesOf, type Content } from '../core/content.ts';
import { findCallEvent, type Event } from '../core/event.ts';
import { findAgentToRun } from './agent-to-run.ts';

/** The call event a message answers (through its first function response), if any. */
export function answeredCallEvent(
  active: readonly Event[],
  message: Content | undefined,
): Event | undefined {
  const id = functionResponsesOf(message).find((response) => response.id !== undefined)?.id;
  return id === undefined ? undefined : findCallEvent(active, id);
}

/** The agent an invocation started at: decided again from the conversation as it then stood. */
export function startAgentOf(
  active: readonly Event[],
  firstIndex: number,
  root: BaseAgent,
): BaseAgent {
  return findAgentToRun(active.slice(0, firstIndex + 1), root);
}

/** Whether `agentName`'s last checkpoint in the invocation says it finished. */
export function hasFinished(invocationEvents: readonly Event[], agentName: string): boolean {
  for (let i = invocationEvents.length - 1; i >= 0; i--) {
    const event = invocationEvents[i]!;
    if (event.author === agentName && (event.actions.endOfAgent || event.actions.agentState)) {
      return event.actions.endOfAgent === true;
    }
  }
  return false;
}

/** The ids a paused invocation waits for: long-running calls the user has not answered. */
export function awaitedCallIds(invocationEvents: readonly Event[]): string[] {
  const answered = new Set<string>();
  for (const event of invocationEvents) {
    if (event.author !== 'user') continue;
    for (const response of functionResponsesOf(event.content))
      if (response.id) answered.add(response.id);
  }
  return invocationEvents.flatMap((event) =>
    (event.longRunningToolIds ?? []).filter((id) => !answered.has(id)),
  );
}
