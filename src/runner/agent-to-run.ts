// Which agent answers a new turn.

import type { BaseAgent } from '../agents/base-agent.ts';
import { isTransferableAcrossTree } from '../agents/transfer.ts';
import { functionResponsesOf } from '../core/content.ts';
import { findCallEvent, type Event } from '../core/event.ts';

/**
 * The agent that answers the turn that `activeEvents` ends with (as ADK, but over the active
 * events, so a rewound turn never decides it):
 * - a user message answering a function call goes to the agent that made the call;
 * - otherwise the agent that answered last, if the conversation can stay with it (it and every
 *   agent above it are LlmAgents that allow transfer back to their parent);
 * - otherwise the root agent.
 */
export function findAgentToRun(
  activeEvents: readonly Event[],
  root: BaseAgent,
  /** The user's message about to be appended, which the turn will then end with. */
  message?: Event,
): BaseAgent {
  const last = message ?? activeEvents.at(-1);
  const response = last?.author === 'user' ? functionResponsesOf(last.content)[0] : undefined;
  if (response?.id !== undefined) {
    const caller = findCallEvent(activeEvents, response.id);
    const agent = caller && root.findAgent(caller.author);
    if (agent) return agent;
  }
  for (let i = activeEvents.length - 1; i >= 0; i--) {
    const event = activeEvents[i]!;
    if (event.author === 'user' || !event.content) continue;
    if (event.author === root.name) return root;
    const agent = root.findSubAgent(event.author);
    if (agent && isTransferableAcrossTree(agent)) return agent;
  }
  return root;
}
