// An agent as the app's agent builder saves it: plain data that names its provider, model, built-in
// tools, sub-agents and the agents it calls as tools (other saved specs) by id. `buildSpecAgent`
// turns a spec and those into an LlmAgent tree; `agentSpecProblems` and `specTreeProblems` say
// what stands in the way.
//
// What must stay true: a spec that has problems is never saved, and a tree is never built from a
// cycle (a → b → a, through sub-agents or agents called as tools) or with one agent twice in it
// (agent names must be unique in a tree and the agents it calls).

import { InvalidRequestError } from '../core/errors.ts';
import type { BaseContextCompactor } from '../context/base-context-compactor.ts';
import type { BaseLlm } from '../models/llm.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { BaseToolset } from '../tools/base-toolset.ts';
import { LOAD_MEMORY } from '../tools/memory-tools.ts';
import { MAX_DISPLAY_NAME } from './agent-name.ts';
import { LlmAgent } from './llm-agent.ts';
import { AgentTool } from '../tools/agent-tool.ts';

export interface AgentSpec {
  id: string;
  /**
   * An identifier (letters, digits, _ and -): the author of its events, the transfer target.
   * The builder makes it from the display name (agent-name.ts), and keeps it when that changes.
   */
  name: string;
  /** How the user calls it ("Trip planner"), any text; `name` when absent (older agents). */
  displayName?: string;
  description: string;
  providerId: string;
  /** The model name; empty for the provider's default model. */
  model: string;
  instruction: string;
  /** Names of built-in tools. */
  tools: string[];
  /** MCP servers of Settings → Tool servers the agent uses: all their tools, or those named. */
  toolServers?: ToolServerUse[];
  /** Ids of other saved specs, in order. */
  subAgentIds: string[];
  /**
   * Ids of other saved specs it calls as tools (ADK's AgentTool: "another of your agents as a
   * tool"); each is the root of a tree of its own. Absent: none.
   */
  agentToolIds?: string[];
  /** Runs can be resumed after a reload, a crash or Stop (default true). */
  resumable: boolean;
  /**
   * "Remembers across sessions": the agent has ADK's `load_memory` tool, and the app adds its
   * turns to memory (workers/memory/memory.ts). Absent: off.
   */
  memory?: boolean;
  /**
   * A chat that nears the model's window is compacted (earlier events summarised for the model)
   * unless this is false; absent: on (workers/agents/compaction.ts).
   */
  compactLongChats?: boolean;
  /**
   * Knowledge bases (src/knowledge) the agent searches with its `search_knowledge` tool, by id.
   * Absent or empty: none.
   */
  knowledgeBaseIds?: string[];
}

export interface ToolServerUse {
  serverId: string;
  /** The server's tools the agent is offered (all that are switched on when absent). */
  tools?: string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** The longest each text field may be (agent files are checked against these too). */
export const AGENT_SPEC_LIMITS = {
  id: 100,
  name: 64,
  description: 1000,
  providerId: 100,
  model: 200,
  instruction: 50_000,
} as const;
const LIMITS = AGENT_SPEC_LIMITS;
const MAX_KNOWLEDGE_BASES = 20;

/**
 * What is wrong with `value` as a spec (any JSON: it may come from an imported file), each problem
 * a sentence naming the field; [] when it is a valid spec.
 */
export function agentSpecProblems(
  value: unknown,
  { toolNames }: { toolNames: readonly string[] },
): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return ['An agent must be a JSON object'];
  const spec = value as Record<string, unknown>;
  const problems: string[] = [];
  const text = (field: keyof typeof LIMITS, required: boolean) => {
    const v = spec[field];
    if (typeof v !== 'string') return void problems.push(`${field} must be text`);
    if (required && !v.trim()) return void problems.push(`${field} is empty`);
    if (v.length > LIMITS[field])
      problems.push(`${field} is longer than ${LIMITS[field]} characters`);
  };
  text('id', true);
  text('name', true);
  if (typeof spec.name === 'string' && spec.name.trim() && spec.name.length <= LIMITS.name) {
    if (!NAME.test(spec.name))
      problems.push(
        `name "${spec.name}" must be an identifier: letters, digits, _ and -, not starting with a digit`,
      );
    else if (spec.name === 'user') problems.push('name cannot be "user"');
  }
  if (spec.displayName !== undefined) {
    if (typeof spec.displayName !== 'string') problems.push('displayName must be text');
    else if (!spec.displayName.trim()) problems.push('Give the agent a name');
    else if (spec.displayName.length > MAX_DISPLAY_NAME)
      problems.push(`displayName is longer than ${MAX_DISPLAY_NAME} characters`);
  }
  text('description', false);
  text('providerId', true);
  text('model', false);
  text('instruction', false);
  const list = (field: 'tools' | 'subAgentIds' | 'agentToolIds' | 'knowledgeBaseIds') => {
    const v = spec[field];
    if (!Array.isArray(v) || v.some((item) => typeof item !== 'string')) {
      problems.push(`${field} must be a list of names`);
      return [];
    }
    const seen = new Set<string>();
    for (const item of v as string[]) {
      if (seen.has(item)) problems.push(`${field} lists ${item} twice`);
      seen.add(item);
    }
    return v as string[];
  };
  for (const tool of list('tools')) {
    if (!toolNames.includes(tool))
      problems.push(`tools: there is no built-in tool ${tool} (there are ${toolNames.join(', ')})`);
  }
  if (list('subAgentIds').includes(spec.id as string))
    problems.push('subAgentIds: an agent cannot be its own sub-agent');
  if (spec.agentToolIds !== undefined && list('agentToolIds').includes(spec.id as string))
    problems.push('agentToolIds: an agent cannot call itself as a tool');
  if (typeof spec.resumable !== 'boolean') problems.push('resumable must be true or false');
  if (spec.memory !== undefined && typeof spec.memory !== 'boolean')
    problems.push('memory must be true or false');
  if (spec.compactLongChats !== undefined && typeof spec.compactLongChats !== 'boolean')
    problems.push('compactLongChats must be true or false');
  problems.push(...toolServerProblems(spec.toolServers));
  if (spec.knowledgeBaseIds !== undefined && list('knowledgeBaseIds').length > MAX_KNOWLEDGE_BASES)
    problems.push(`knowledgeBaseIds: an agent can search at most ${MAX_KNOWLEDGE_BASES} bases`);
  return problems;
}

function toolServerProblems(value: unknown): string[] {
  if (value === undefined) return [];
  const uses = Array.isArray(value) ? value : undefined;
  if (!uses || uses.length > 20) return ['toolServers must be a list of at most 20 servers'];
  const problems: string[] = [];
  const seen = new Set<string>();
  uses.forEach((use: unknown, i) => {
    const { serverId, tools } = (use ?? {}) as { serverId?: unknown; tools?: unknown };
    if (typeof serverId !== 'string' || !serverId || serverId.length > 100)
      return void problems.push(`toolServers[${i}] needs a serverId`);
    if (seen.has(serverId)) problems.push(`toolServers lists ${serverId} twice`);
    seen.add(serverId);
    if (
      tools !== undefined &&
      (!Array.isArray(tools) || tools.some((tool) => typeof tool !== 'string' || tool.length > 200))
    )
      problems.push(`toolServers[${i}].tools must be a list of tool names`);
  });
  return problems;
}

/**
 * What stands in the way of building the tree rooted at `root`: sub-agents that do not exist, a
 * cycle, one agent twice in the tree, two agents with one name. [] when it can be built.
 */
export function specTreeProblems(
  root: AgentSpec,
  lookup: (id: string) => AgentSpec | undefined,
): string[] {
  const problems: string[] = [];
  const placed = new Map<string, string>(); // spec id → the name of its parent in the tree
  const names = new Map<string, string>(); // agent name → spec id
  const tools = new Map<string, string>(); // spec id → the name of an agent calling it as a tool
  const visit = (spec: AgentSpec, path: readonly AgentSpec[]) => {
    const sameName = names.get(spec.name);
    if (sameName !== undefined && sameName !== spec.id)
      problems.push(`Two agents in ${root.name}'s tree are called ${spec.name}: rename one`);
    names.set(spec.name, spec.id);
    visitTools(spec, path);
    for (const childId of spec.subAgentIds) {
      const child = lookup(childId);
      if (!child) {
        problems.push(`${spec.name} has a sub-agent that no longer exists (${childId})`);
        continue;
      }
      const cycleAt = path.findIndex((ancestor) => ancestor.id === child.id);
      if (cycleAt >= 0 || child.id === spec.id) {
        const loop = [...(cycleAt >= 0 ? path.slice(cycleAt) : []), spec, child];
        problems.push(
          `Sub-agents go round in a circle (${loop.map((s) => s.name).join(' → ')}): an agent cannot be below itself`,
        );
        continue;
      }
      const caller = tools.get(child.id);
      if (caller !== undefined) {
        problems.push(bothProblem(child, spec.name, caller));
        continue;
      }
      const parent = placed.get(child.id);
      if (parent !== undefined) {
        problems.push(
          `${child.name} is a sub-agent of both ${parent} and ${spec.name}: an agent can have only one parent in a tree`,
        );
        continue;
      }
      placed.set(child.id, spec.name);
      visit(child, [...path, spec]);
    }
  };
  // An agent called as a tool is built once, as the root of its own tree (src/tools/agent-tool.ts),
  // so several agents may call it, but it cannot also be a sub-agent, nor lead back to a caller.
  const visitTools = (spec: AgentSpec, path: readonly AgentSpec[]) => {
    for (const calledId of spec.agentToolIds ?? []) {
      const called = lookup(calledId);
      if (!called) {
        problems.push(`${spec.name} calls an agent that no longer exists (${calledId})`);
        continue;
      }
      const cycleAt = path.findIndex((ancestor) => ancestor.id === called.id);
      if (cycleAt >= 0 || called.id === spec.id) {
        const loop = [...(cycleAt >= 0 ? path.slice(cycleAt) : []), spec, called];
        problems.push(
          `Agents call each other in a circle (${loop.map((s) => s.name).join(' → ')}): an agent cannot call itself`,
        );
        continue;
      }
      const parent = placed.get(called.id);
      if (parent !== undefined) {
        problems.push(bothProblem(called, parent, spec.name));
        continue;
      }
      if (tools.has(called.id)) continue;
      tools.set(called.id, spec.name);
      visit(called, [...path, spec]);
    }
  };
  visit(root, []);
  return [...new Set(problems)];
}

function bothProblem(spec: AgentSpec, parent: string, caller: string): string {
  return `${spec.name} is a sub-agent of ${parent} and a tool of ${caller}: an agent called as a tool cannot also be a sub-agent`;
}

export interface BuildSpecOptions {
  lookup: (id: string) => AgentSpec | undefined;
  /** The model of a spec (its provider's, with the key). */
  model: (spec: AgentSpec) => BaseLlm;
  tools: (names: readonly string[]) => BaseTool[];
  /** The toolsets of a spec's tool servers (none when absent). */
  toolsets?: (spec: AgentSpec) => BaseToolset[];
  /** The tool searching a spec's knowledge bases (none when absent, or for no bases). */
  knowledge?: (spec: AgentSpec) => BaseTool | undefined;
  /** A spec's context compactors, given its model (none when absent). */
  contextCompactors?: (spec: AgentSpec, model: BaseLlm) => BaseContextCompactor[];
}

/** The LlmAgent of `root`, its sub-agents built from their specs; refuses cycles and the like. */
export function buildSpecAgent(root: AgentSpec, options: BuildSpecOptions): LlmAgent {
  const problems = specTreeProblems(root, options.lookup);
  if (problems.length > 0) throw new InvalidRequestError(`Agent ${root.name}: ${problems[0]}`);
  const build = (spec: AgentSpec): LlmAgent => {
    const model = options.model(spec);
    const contextCompactors = options.contextCompactors?.(spec, model) ?? [];
    const knowledge = spec.knowledgeBaseIds?.length ? options.knowledge?.(spec) : undefined;
    return new LlmAgent({
      name: spec.name,
      description: spec.description,
      model,
      instruction: spec.instruction,
      tools: [
        ...options.tools(spec.tools),
        ...(options.toolsets?.(spec) ?? []),
        ...(spec.memory ? [LOAD_MEMORY] : []),
        ...(knowledge ? [knowledge] : []),
        ...(spec.agentToolIds ?? []).map(calledAs),
      ],
      subAgents: spec.subAgentIds.map((id) => build(options.lookup(id)!)),
      ...(contextCompactors.length > 0 ? { contextCompactors } : {}),
    });
  };
  // One agent per spec called as a tool, however many agents call it (see specTreeProblems).
  const called = new Map<string, AgentTool>();
  const calledAs = (id: string): AgentTool => {
    let tool = called.get(id);
    if (!tool) called.set(id, (tool = new AgentTool({ agent: build(options.lookup(id)!) })));
    return tool;
  };
  return build(root);
}

/** Every spec of the tree rooted at `root`, root first (each once, even in a broken tree). */
export function specTree<T extends AgentSpec>(root: T, lookup: (id: string) => T | undefined): T[] {
  const out = new Map<string, T>();
  const visit = (spec: T) => {
    if (out.has(spec.id)) return;
    out.set(spec.id, spec);
    for (const id of [...spec.subAgentIds, ...(spec.agentToolIds ?? [])]) {
      const child = lookup(id);
      if (child) visit(child);
    }
  };
  visit(root);
  return [...out.values()];
}
