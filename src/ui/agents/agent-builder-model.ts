// The agent builder, the pure parts: the form's draft, what it sends, which saved agents can be
// its sub-agents or tools (never one that would close a circle), and whether it changed.

import { agentIdentifier } from '../../agents/agent-name.ts';
import type { AgentSpecInfo, AgentSpecInput, ProviderInfo } from '../../../workers/protocol.ts';

export type AgentDraft = AgentSpecInput;

/** A new agent on the first provider, with an identifier no other agent has. */
export function emptyDraft(
  providers: readonly ProviderInfo[],
  taken: readonly string[] = [],
): AgentDraft {
  const name = agentIdentifier('my agent', taken);
  return {
    name,
    displayName: name === 'my_agent' ? 'My agent' : `My agent ${name.slice('my_agent_'.length)}`,
    description: '',
    providerId: providers[0]?.id ?? '',
    model: '',
    instruction: 'You are a helpful assistant. Answer briefly.',
    tools: [],
    subAgentIds: [],
    resumable: true,
  };
}

/** The draft of a saved agent (its fields only). */
export function draftOf(spec: AgentSpecInfo): AgentDraft {
  const { id, name, description, providerId, model, instruction, tools, subAgentIds, resumable } =
    spec;
  return {
    id,
    name,
    // An agent from before display names is shown, and renamed, by its identifier.
    displayName: spec.displayName ?? name,
    description,
    providerId,
    model,
    instruction,
    tools: [...tools],
    subAgentIds: [...subAgentIds],
    ...(spec.agentToolIds && spec.agentToolIds.length > 0
      ? { agentToolIds: [...spec.agentToolIds] }
      : {}),
    resumable,
    ...(spec.toolServers && spec.toolServers.length > 0
      ? { toolServers: spec.toolServers.map((use) => ({ ...use })) }
      : {}),
    ...(spec.compactLongChats === false ? { compactLongChats: false } : {}),
    ...(spec.memory === true ? { memory: true } : {}),
    ...(spec.knowledgeBaseIds && spec.knowledgeBaseIds.length > 0
      ? { knowledgeBaseIds: [...spec.knowledgeBaseIds] }
      : {}),
  };
}

/**
 * The draft called `displayName`: a new agent's identifier follows it (unique among `taken`, the
 * other agents' identifiers); a saved agent keeps its own, which its sessions' events and the
 * agents that transfer to it name.
 */
export function withDisplayName(
  draft: AgentDraft,
  displayName: string,
  taken: readonly string[],
): AgentDraft {
  const name = draft.id === undefined ? agentIdentifier(displayName, taken) : draft.name;
  return { ...draft, displayName, name };
}

/** The draft's tool servers with `serverId` used (all its tools) or not. */
export function toggledServer(
  draft: AgentDraft,
  serverId: string,
  on: boolean,
): NonNullable<AgentDraft['toolServers']> {
  const rest = (draft.toolServers ?? []).filter((use) => use.serverId !== serverId);
  return on ? [...rest, { serverId }] : rest;
}

/**
 * The draft's tool servers with the tools taken from `serverId` set: `undefined` for all of them
 * (those it adds later included), else the ones named.
 */
export function withServerTools(
  draft: AgentDraft,
  serverId: string,
  tools: readonly string[] | undefined,
): NonNullable<AgentDraft['toolServers']> {
  return (draft.toolServers ?? []).map((use) =>
    use.serverId !== serverId ? use : tools ? { serverId, tools: [...tools] } : { serverId },
  );
}

/** `list` with `item` added (at the end) or removed. */
export function toggled(list: readonly string[], item: string, on: boolean): string[] {
  const rest = list.filter((entry) => entry !== item);
  return on ? [...rest, item] : rest;
}

/**
 * The saved agents the draft may take as sub-agents, or call as tools: not itself, and not one
 * that has it below or calls it (which would close a circle). The worker checks again on save.
 */
export function subAgentChoices(
  specs: readonly AgentSpecInfo[],
  selfId: string | undefined,
): AgentSpecInfo[] {
  if (selfId === undefined) return [...specs];
  const byId = new Map(specs.map((spec) => [spec.id, spec]));
  const below = (spec: AgentSpecInfo, seen = new Set<string>()): boolean => {
    if (seen.has(spec.id)) return false;
    seen.add(spec.id);
    return [...spec.subAgentIds, ...(spec.agentToolIds ?? [])].some((id) => {
      const child = byId.get(id);
      return id === selfId || (child !== undefined && below(child, seen));
    });
  };
  return specs.filter((spec) => spec.id !== selfId && !below(spec));
}

export function sameDraft(a: AgentDraft, b: AgentDraft): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** What the model field suggests when left empty. */
export function modelPlaceholder(providers: readonly ProviderInfo[], providerId: string): string {
  const provider = providers.find((item) => item.id === providerId);
  return provider?.defaultModel
    ? `${provider.defaultModel} (the provider’s default)`
    : 'A model name';
}
