// The agent file: a saved agent with its sub-agents and the providers they use, as JSON to share
// or keep. It never holds an API key: providers travel as kind, name, base URL and default model,
// and the importer matches them to its own providers (or asks for one to be added).

import { InvalidRequestError } from '../core/errors.ts';
import { DEFINITION_FILE_LIMITS, jsonTextProblem, jsonTreeProblem } from '../core/json-limits.ts';
import { PROVIDER_KINDS, providerProblems, type ProviderSpec } from '../models/provider-spec.ts';
import {
  AGENT_SPEC_LIMITS,
  agentSpecProblems,
  specTree,
  specTreeProblems,
  type AgentSpec,
} from './agent-spec.ts';

export const AGENT_FILE_FORMAT = 'trellis-agent';
export const AGENT_FILE_VERSION = 1;

/** The most agents and providers a file may hold (a tree is walked recursively). */
export const AGENT_FILE_LIMITS = { agents: 100, providers: 20 } as const;

/** A provider as an agent file names it: everything but the key. */
export type ProviderRef = Omit<ProviderSpec, 'apiKey'>;

export interface AgentFile {
  format: typeof AGENT_FILE_FORMAT;
  version: number;
  /** The id of the agent the file is about (its sub-agents come along). */
  agent: string;
  /** The agent first, then every agent below it. */
  agents: AgentSpec[];
  providers: ProviderRef[];
  /** The MCP servers the agents use, by address: never a header (a token stays home). */
  toolServers?: ToolServerRef[];
}

/** A tool server as an agent file names it. */
export interface ToolServerRef {
  id: string;
  name: string;
  url: string;
}

/** The file of `root` and its tree. Providers are copied field by field, so a key cannot slip in. */
export function toAgentFile(
  root: AgentSpec,
  lookup: (id: string) => AgentSpec | undefined,
  provider: (id: string) => ProviderSpec | undefined,
  toolServer: (id: string) => ToolServerRef | undefined = () => undefined,
): string {
  const agents = specTree(root, lookup);
  const providers: ProviderRef[] = [];
  for (const id of new Set(agents.map((spec) => spec.providerId))) {
    const found = provider(id);
    if (!found) continue;
    const { kind, name, baseUrl, defaultModel } = found;
    providers.push({ id, kind, name, baseUrl, defaultModel });
  }
  const toolServers: ToolServerRef[] = [];
  for (const id of new Set(
    agents.flatMap((spec) => (spec.toolServers ?? []).map((u) => u.serverId)),
  )) {
    const found = toolServer(id);
    // Field by field: a server's headers cannot slip in.
    if (found) toolServers.push({ id, name: found.name, url: found.url });
  }
  const file: AgentFile = {
    format: AGENT_FILE_FORMAT,
    version: AGENT_FILE_VERSION,
    agent: root.id,
    // Knowledge bases stay in this browser: a file names none (its reader gives the agent theirs).
    agents: agents.map((agent) => {
      const { knowledgeBaseIds: _local, ...fields } = specFields(agent);
      return fields;
    }),
    providers,
    ...(toolServers.length > 0 ? { toolServers } : {}),
  };
  return JSON.stringify(file, null, 2);
}

/** Only the fields of a spec, in a stable order (a record may carry more, like `updatedAt`). */
export function specFields(spec: AgentSpec): AgentSpec {
  const { id, name, displayName, description, providerId, model, instruction, tools } = spec;
  const { subAgentIds, agentToolIds, resumable } = spec;
  const toolServers = spec.toolServers?.map(({ serverId, tools: named }) => ({
    serverId,
    ...(named ? { tools: [...named] } : {}),
  }));
  return {
    id,
    name,
    ...(displayName !== undefined ? { displayName } : {}),
    description,
    providerId,
    model,
    instruction,
    tools,
    subAgentIds,
    ...(agentToolIds && agentToolIds.length > 0 ? { agentToolIds } : {}),
    resumable,
    ...(toolServers && toolServers.length > 0 ? { toolServers } : {}),
    // Kept only when on: off is the default, and older files say nothing.
    ...(spec.memory === true ? { memory: true } : {}),
    // Left out when on (the default; older files say nothing); anything else is kept, for the
    // checks to refuse what is not false.
    ...(spec.compactLongChats !== undefined && spec.compactLongChats !== true
      ? { compactLongChats: spec.compactLongChats }
      : {}),
    ...(spec.knowledgeBaseIds && spec.knowledgeBaseIds.length > 0
      ? { knowledgeBaseIds: [...spec.knowledgeBaseIds] }
      : {}),
  };
}

/**
 * Reads an agent file, checking all of it: the format, every agent (as the builder would), that
 * every sub-agent and provider it names is in the file, and that the tree can be built. Anything
 * wrong is an InvalidRequestError that says what and where.
 */
export function parseAgentFile(
  text: string,
  { toolNames }: { toolNames: readonly string[] },
): AgentFile {
  const refuse = (why: string): never => {
    throw new InvalidRequestError(`This is not an agent file Trellis can import: ${why}`);
  };
  const tooBig = jsonTextProblem(text, DEFINITION_FILE_LIMITS, 'the file');
  if (tooBig) refuse(tooBig);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    refuse(`it is not JSON (${(error as Error).message})`);
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    refuse(
      `the file is ${json === null ? 'null' : Array.isArray(json) ? 'a list' : `a ${typeof json}`}, not a JSON object`,
    );
  const hostile = jsonTreeProblem(json, DEFINITION_FILE_LIMITS);
  if (hostile) refuse(hostile);
  const file = json as Record<string, unknown>;
  if (file.format !== AGENT_FILE_FORMAT)
    refuse(`"format" must be "${AGENT_FILE_FORMAT}" (is this a session or a flow file?)`);
  if (file.version !== AGENT_FILE_VERSION)
    refuse(`version ${String(file.version)} is not one this Trellis reads (${AGENT_FILE_VERSION})`);
  if (!Array.isArray(file.agents) || file.agents.length === 0)
    refuse('"agents" is not a list of agents');
  if (!Array.isArray(file.providers)) refuse('"providers" is not a list');
  if ((file.agents as unknown[]).length > AGENT_FILE_LIMITS.agents)
    refuse(`it holds more than ${AGENT_FILE_LIMITS.agents} agents`);
  if ((file.providers as unknown[]).length > AGENT_FILE_LIMITS.providers)
    refuse(`it holds more than ${AGENT_FILE_LIMITS.providers} providers`);

  const agents = file.agents as unknown[];
  agents.forEach((agent, i) => {
    const problems = agentSpecProblems(agent, { toolNames });
    const name = (agent as AgentSpec | null)?.name;
    const label =
      typeof name === 'string' ? ` (${name.length > 64 ? `${name.slice(0, 64)}…` : name})` : '';
    if (problems.length > 0) refuse(`agents[${i}]${label}: ${problems.join('; ')}`);
  });
  const specs = (agents as AgentSpec[]).map(specFields);
  const byId = new Map(specs.map((spec) => [spec.id, spec]));
  if (byId.size !== specs.length) refuse('two agents have the same id');

  const providers = (file.providers as unknown[]).map((value, i): ProviderRef => {
    const ref = value as Partial<ProviderRef> | null;
    if (typeof ref !== 'object' || ref === null || typeof ref.id !== 'string')
      return refuse(`providers[${i}] has no id`);
    if (ref.id.length > AGENT_SPEC_LIMITS.providerId)
      refuse(`providers[${i}] has an id longer than ${AGENT_SPEC_LIMITS.providerId} characters`);
    const candidate = {
      kind: ref.kind as ProviderRef['kind'],
      name: String(ref.name ?? ''),
      baseUrl: String(ref.baseUrl ?? ''),
      defaultModel: typeof ref.defaultModel === 'string' ? ref.defaultModel : '',
    };
    const problems = providerProblems(candidate, { needsLocalFile: false });
    if (!PROVIDER_KINDS.includes(candidate.kind) || problems.length > 0)
      refuse(`providers[${i}]: ${problems.join('; ')}`);
    return { id: ref.id, ...candidate }; // a key in the file, if any, is dropped
  });

  const toolServers = (Array.isArray(file.toolServers) ? (file.toolServers as unknown[]) : [])
    .slice(0, AGENT_FILE_LIMITS.providers)
    .map((value, i): ToolServerRef => {
      const ref = (value ?? {}) as Record<string, unknown>;
      if (typeof ref.id !== 'string' || typeof ref.url !== 'string' || ref.url.length > 2000)
        return refuse(`toolServers[${i}] needs an id and a url`);
      return { id: ref.id, name: String(ref.name ?? ref.url).slice(0, 100), url: ref.url };
    });
  for (const spec of specs) {
    for (const use of spec.toolServers ?? [])
      if (!toolServers.some((server) => server.id === use.serverId))
        refuse(`${spec.name} uses a tool server (${use.serverId}) that is not in the file`);
    for (const childId of spec.subAgentIds) {
      if (!byId.has(childId))
        refuse(`${spec.name} has a sub-agent ${childId} that is not in the file`);
    }
    for (const calledId of spec.agentToolIds ?? []) {
      if (!byId.has(calledId))
        refuse(`${spec.name} calls an agent ${calledId} that is not in the file`);
    }
    if (!providers.some((provider) => provider.id === spec.providerId))
      refuse(`${spec.name} uses a provider (${spec.providerId}) that is not in the file`);
  }
  const rootId = typeof file.agent === 'string' ? file.agent : specs[0]!.id;
  const root = byId.get(rootId) ?? refuse(`"agent" names ${rootId}, which is not in the file`);
  const problems = specTreeProblems(root, (id) => byId.get(id));
  if (problems.length > 0) refuse(problems[0]!);
  return {
    format: AGENT_FILE_FORMAT,
    version: AGENT_FILE_VERSION,
    agent: root.id,
    agents: specTree(root, (id) => byId.get(id)),
    providers,
    ...(toolServers.length > 0 ? { toolServers } : {}),
  };
}
