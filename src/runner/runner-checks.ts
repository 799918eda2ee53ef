// What the runner checks of what it is given, and the events it makes of it: its agent tree,
// a new message, the user's message event.

import type { BaseAgent } from '../agents/base-agent.ts';
import type { Content } from '../core/content.ts';
import { InvalidRequestError } from '../core/errors.ts';
import { agentsCalledBy } from '../tools/agent-tool.ts';
import { createEvent, type Event } from '../core/event.ts';
import type { InvocationContext } from './invocation-context.ts';

/** The user's message event; an answer to a call goes on the branch of the call. */
export function userEvent(
  invocationId: string,
  content: Content,
  stateDelta: Record<string, unknown> | undefined,
  branch: string | undefined,
): Event {
  return createEvent({
    invocationId,
    author: 'user',
    content,
    actions: { stateDelta: stateDelta ?? {} },
    ...(branch ? { branch } : {}),
  });
}

/** The invocation's events so far, as the active conversation has them. */
export function invocationEvents(ctx: InvocationContext): Event[] {
  return ctx.activeView.peek().filter((event) => event.invocationId === ctx.invocationId);
}

export function checkMessage(message: Content | undefined): Content {
  if (!message || !Array.isArray(message.parts) || message.parts.length === 0) {
    throw new InvalidRequestError('A new message needs at least one part');
  }
  return message;
}

/**
 * Agent names must be unique in the tree: transfer and the log refer to agents by name. So must
 * they be across the agents its agents call as tools (AgentTool), whose events share the log: one
 * agent may be called by several, but it may not be a sub-agent of another tree.
 */
export function checkAgentTree(root: BaseAgent): void {
  const seen = new Map<string, BaseAgent>();
  const visit = (top: BaseAgent) => {
    for (const agent of top.walk()) {
      if (seen.has(agent.name)) {
        throw new InvalidRequestError(
          top === root
            ? `Two agents are named ${agent.name}; names must be unique in the tree`
            : `Two agents are named ${agent.name} (one is called as a tool); names must be unique in the tree and the agents it calls`,
        );
      }
      seen.set(agent.name, agent);
    }
    for (const agent of top.walk()) {
      for (const called of agentsCalledBy(agent)) {
        if (called.parentAgent) {
          throw new InvalidRequestError(
            `${called.name} is a sub-agent of ${called.parentAgent.name}; an agent called as a tool must be the root of its own tree`,
          );
        }
        if (seen.get(called.name) !== called) visit(called);
      }
    }
  };
  visit(root);
}
