// Transfer between LlmAgents: the built-in `transfer_to_agent` tool and who may be its target.

import { FunctionTool } from '../tools/function-tool.ts';
import type { BaseAgent } from './base-agent.ts';

export const TRANSFER_TO_AGENT = 'transfer_to_agent';

export interface TransferPolicy {
  disallowTransferToParent: boolean;
  disallowTransferToPeers: boolean;
}

/** Whether an agent is an LlmAgent that may hand control back to its parent. */
export interface TransferCapable {
  readonly transferPolicy: TransferPolicy;
}

export function transferPolicyOf(agent: BaseAgent | undefined): TransferPolicy | undefined {
  return (agent as Partial<TransferCapable> | undefined)?.transferPolicy;
}

/**
 * The agents `agent` may transfer to (as ADK): its sub-agents; then, when its parent is an
 * LlmAgent, that parent (unless disallowed) and its peers (unless disallowed).
 */
export function transferTargets(agent: BaseAgent & TransferCapable): BaseAgent[] {
  const targets = [...agent.subAgents];
  const parent = agent.parentAgent;
  if (!parent || !transferPolicyOf(parent)) return targets;
  if (!agent.transferPolicy.disallowTransferToParent) targets.push(parent);
  if (!agent.transferPolicy.disallowTransferToPeers) {
    targets.push(...parent.subAgents.filter((peer) => peer !== agent));
  }
  return targets;
}

/** The `transfer_to_agent` tool offered to an agent with transfer targets. */
export function transferTool(targets: readonly BaseAgent[]): FunctionTool<{ agent_name: string }> {
  const names = targets.map((target) => target.name);
  return new FunctionTool({
    name: TRANSFER_TO_AGENT,
    description: 'Transfer the conversation to another agent better suited to answer it.',
    parameters: {
      type: 'object',
      properties: {
        agent_name: { type: 'string', enum: names, description: 'The agent to transfer to.' },
      },
      required: ['agent_name'],
    },
    execute: ({ agent_name }, toolContext) => {
      toolContext.actions.transferToAgent = agent_name;
      return { result: null };
    },
  });
}

/** What an agent with transfer targets is told about them. */
export function transferInstruction(agent: BaseAgent, targets: readonly BaseAgent[]): string {
  const list = targets
    .map(
      (target) =>
        `Agent name: ${target.name}\nAgent description: ${target.description || '(none)'}`,
    )
    .join('\n\n');
  let text =
    `You can hand the conversation to one of these agents:\n\n${list}\n\n` +
    `If you are best suited to answer according to your description, answer yourself. If another ` +
    `agent is better suited according to its description, call \`${TRANSFER_TO_AGENT}\` with its ` +
    `name, and say nothing else.`;
  const parent = agent.parentAgent;
  if (parent && targets.includes(parent)) {
    text += ` If neither you nor the other agents suit the request, transfer to your parent agent ${parent.name}.`;
  }
  return text;
}

/**
 * Whether the next turn may start at `agent` (as ADK): it and every agent above it must be an
 * LlmAgent that allows transfer to its parent; otherwise the root answers.
 */
export function isTransferableAcrossTree(agent: BaseAgent): boolean {
  for (let current: BaseAgent | undefined = agent; current; current = current.parentAgent) {
    const policy = transferPolicyOf(current);
    if (!policy || policy.disallowTransferToParent) return false;
  }
  return true;
}
