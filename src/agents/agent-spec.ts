// An agent as the app's agent builder saves it: plain data that names its provider, model, built-in
// tools and sub-agents (other saved specs) by id. `buildSpecAgent` turns a spec and its sub-agents
// into an LlmAgent tree; `agentSpecProblems` and `specTreeProblems` say what stands in the way.
//
// What must stay true: a spec that has problems is never saved, and a tree is never built from a
// cycle (a → b → a) or with one agent twice in it (agent names must be unique in a tree).

import { InvalidRequestError } from '../core/errors.ts';
import type { BaseLlm } from '../models/llm.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { BaseToolset } from '../tools/base-toolset.ts';
import { MAX_DISPLAY_NAME } from './agent-name.ts';
import { LlmAgent } from './llm-agent.ts';

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
  /** Runs can be resumed after a reload, a crash or Stop (default true). */
  resumable: boolean;
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
  const list = (field: 'tools' | 'subAgentIds') => {
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
  if (typeof spec.resumable !== 'boolean') problems.push('resumable must be true or false');
  problems.push(...toolServerProblems(spec.toolServers));
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
  const visit = (spec: AgentSpec, path: readonly AgentSpec[]) => {
    const sameName = names.get(spec.name);
    if (sameName !== undefined && sameName !== spec.id)
      problems.push(`Two agents in ${root.name}'s tree are called ${spec.name}: rename one`);
    names.set(spec.name, spec.id);
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
  visit(root, []);
  return [...new Set(problems)];
}

export interface BuildSpecOptions {
  lookup: (id: string) => AgentSpec | undefined;
  /** The model of a spec (its provider's, with the key). */
  model: (spec: AgentSpec) => BaseLlm;
  tools: (names: readonly string[]) => BaseTool[];
  /** The toolsets of a spec's tool servers (none when absent). */
  toolsets?: (spec: AgentSpec) => BaseToolset[];
}

/** The LlmAgent of `root`, its sub-agents built from their specs; refuses cycles and the like. */
export function buildSpecAgent(root: AgentSpec, options: BuildSpecOptions): LlmAgent {
  const problems = specTreeProblems(root, options.lookup);
  if (problems.length > 0) throw new InvalidRequestError(`Agent ${root.name}: ${problems[0]}`);
  const build = (spec: AgentSpec): LlmAgent =>
    new LlmAgent({
      name: spec.name,
      description: spec.description,
      model: options.model(spec),
      instruction: spec.instruction,
      tools: [...options.tools(spec.tools), ...(options.toolsets?.(spec) ?? [])],
      subAgents: spec.subAgentIds.map((id) => build(options.lookup(id)!)),
    });
  return build(root);
}

/** Every spec of the tree rooted at `root`, root first (each once, even in a broken tree). */
export function specTree<T extends AgentSpec>(root: T, lookup: (id: string) => T | undefined): T[] {
  const out = new Map<string, T>();
  const visit = (spec: T) => {
    if (out.has(spec.id)) return;
    out.set(spec.id, spec);
    for (const id of spec.subAgentIds) {
      const child = lookup(id);
      if (child) visit(child);
    }
  };
  visit(root);
  return [...out.values()];
}
