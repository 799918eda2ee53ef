// The agent builder, in the worker: agents made of a provider's model, built-in tools and other
// saved agents as sub-agents or tools, stored in IndexedDB (`agent:<id>` in the Agent select). Rules:
// - a spec with problems (a field, a missing provider, a name taken, a cycle) is never stored;
// - an agent is built from the specs and providers as stored now: `source` gives a version that
//   changes with any of them, so a runner is rebuilt after an edit (in any tab);
// - an agent used as a sub-agent or called as a tool cannot be deleted; its sessions are kept
//   when it is deleted;
// - an export never holds a key; an import is checked whole and writes all of it or nothing.

import { parseAgentFile, specFields, toAgentFile } from '../../src/agents/agent-file.ts';
import { shownName } from '../../src/agents/agent-name.ts';
import {
  agentSpecProblems,
  buildSpecAgent,
  specTree,
  specTreeProblems,
  type AgentSpec,
} from '../../src/agents/agent-spec.ts';
import { InvalidRequestError } from '../../src/index.ts';
import { attachmentPolicy } from '../../src/models/attachments.ts';
import type { AgentSpecRecord, IndexedDbAppStore } from '../../src/store/app-store.ts';
import { BUILTIN_TOOLS, BUILTIN_TOOL_NAMES, builtinTools } from '../../src/tools/builtin-tools.ts';
import type { AgentSource } from '../flows/flows.ts';
import type { AppProviders } from '../providers.ts';
import { agentWindow, defaultCompactors } from './compaction.ts';
import type { AppToolServers } from '../tool-servers/tool-servers.ts';
import type { AppKnowledge } from '../knowledge/knowledge.ts';
import type { BaseTool } from '../../src/tools/base-tool.ts';
import { PolicyTool, PolicyToolset } from '../../src/tools/tool-policy.ts';
import type {
  AgentImportResult,
  AgentInfo,
  AgentSpecInfo,
  AgentSpecInput,
  BuiltinToolInfo,
  RuntimeBroadcast,
  SaveAgentResult,
} from '../protocol.ts';

export const SPEC_PREFIX = 'agent:';
export const isSpecAgent = (agentId: string) => agentId.startsWith(SPEC_PREFIX);

const toolNames = BUILTIN_TOOL_NAMES;

export class AppAgentSpecs {
  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly providers: AppProviders,
    private readonly options: { broadcast: (message: RuntimeBroadcast) => void },
    private readonly toolServers?: AppToolServers,
  ) {}

  private knowledge: AppKnowledge | undefined;
  /** Agents search knowledge bases through this room (workers/knowledge/knowledge.ts). */
  useKnowledge(knowledge: AppKnowledge): void {
    this.knowledge = knowledge;
  }

  private underPolicy(tool: BaseTool): BaseTool {
    return this.toolServers ? new PolicyTool(tool, this.toolServers.policyOf) : tool;
  }

  /** The names of the saved agents that use tool server `serverId`. */
  async usingToolServer(serverId: string): Promise<string[]> {
    return (await this.store.listAgentSpecs())
      .filter((spec) => (spec.toolServers ?? []).some((use) => use.serverId === serverId))
      .map((spec) => spec.name);
  }

  /** The saved agents by name, each with its provider's name. */
  async list(): Promise<AgentSpecInfo[]> {
    const [records, providers] = await Promise.all([
      this.store.listAgentSpecs(),
      this.providers.list(),
    ]);
    const names = new Map(providers.map((provider) => [provider.id, provider.name]));
    return records
      .map((record) => infoOf(record, names.get(record.providerId)))
      .sort((a, b) => shownName(a).localeCompare(shownName(b)));
  }

  /** The built-in tools the builder offers. */
  tools(): BuiltinToolInfo[] {
    return BUILTIN_TOOLS.map(({ name, description }) => ({ name, description }));
  }

  /** The saved agents as agents of the Agent select. */
  async agentInfos(): Promise<AgentInfo[]> {
    const [specs, providers] = await Promise.all([this.list(), this.providers.list()]);
    const kinds = new Map(providers.map((provider) => [provider.id, provider.kind]));
    // An agent writes as itself and as the sub-agents it hands over to: all of them by name.
    const authors: Record<string, string> = {};
    for (const spec of specs)
      if (shownName(spec) !== spec.name) authors[spec.name] = shownName(spec);
    return specs.map((spec) => ({
      id: spec.agentId,
      name: shownName(spec),
      description:
        `${spec.model || 'default model'} on ${spec.providerName ?? 'a deleted provider'}` +
        (spec.description ? `: ${spec.description}` : ''),
      kind: 'agent' as const,
      // The message goes to this agent's model first (a sub-agent it hands over to reads
      // what it can: see openai-wire for a file a server cannot take).
      attachments: attachmentPolicy(kinds.get(spec.providerId) ?? 'openai-compatible'),
      ...(Object.keys(authors).length > 0 ? { authors } : {}),
    }));
  }

  async exists(agentId: string): Promise<boolean> {
    return (await this.store.getAgentSpec(agentId.slice(SPEC_PREFIX.length))) !== undefined;
  }

  /** Whether its runs are offered for resuming (a deleted agent's are: resuming says why not). */
  async resumable(agentId: string): Promise<boolean> {
    return (await this.store.getAgentSpec(agentId.slice(SPEC_PREFIX.length)))?.resumable ?? true;
  }

  /** Whether its turns are added to memory ("Remembers across sessions"). */
  async remembers(agentId: string): Promise<boolean> {
    return (await this.store.getAgentSpec(agentId.slice(SPEC_PREFIX.length)))?.memory === true;
  }

  /** Saves a valid spec (a new one without `id`); otherwise the problems, and nothing written. */
  async save(input: AgentSpecInput): Promise<SaveAgentResult> {
    if (input.id !== undefined && !(await this.store.getAgentSpec(input.id)))
      throw new InvalidRequestError(
        'This agent was deleted (in another tab?): save it as a new one',
      );
    const spec = specFields({ ...input, id: input.id ?? newId() } as AgentSpec);
    const problems = await this.problems(spec);
    if (problems.length > 0) return { problems };
    const record: AgentSpecRecord = { ...spec, updatedAt: Date.now() };
    await this.store.putAgentSpecs([record]);
    this.options.broadcast({ type: 'agents-changed' });
    const provider = await this.store.getProvider(spec.providerId);
    return { saved: infoOf(record, provider?.name), problems: [] };
  }

  async remove(id: string): Promise<void> {
    const parents = (await this.store.listAgentSpecs()).filter((spec) =>
      spec.subAgentIds.includes(id),
    );
    if (parents.length > 0) {
      throw new InvalidRequestError(
        `This agent is a sub-agent of ${parents.map(shownName).join(', ')}: remove it there first`,
      );
    }
    const callers = (await this.store.listAgentSpecs()).filter((spec) =>
      spec.agentToolIds?.includes(id),
    );
    if (callers.length > 0) {
      throw new InvalidRequestError(
        `${callers.map(shownName).join(', ')} call${callers.length === 1 ? 's' : ''} this agent as a tool: remove it there first`,
      );
    }
    await this.store.deleteAgentSpec(id);
    this.options.broadcast({ type: 'agents-changed' });
  }

  /** The agent file of a saved agent: it, its sub-agents and their providers, without keys. */
  async exportFile(id: string): Promise<{ filename: string; json: string }> {
    const specs = await this.specsById();
    const root = specs.get(id);
    if (!root) throw new InvalidRequestError(`There is no agent ${id}`);
    const providers = new Map((await this.store.listProviders()).map((p) => [p.id, p]));
    const servers = new Map(((await this.toolServers?.list()) ?? []).map((s) => [s.id, s]));
    return {
      filename: `${root.name}.agent.json`,
      json: toAgentFile(
        root,
        (specId) => specs.get(specId),
        (pid) => {
          const provider = providers.get(pid);
          return provider && { ...provider, apiKey: undefined }; // never a key in a file
        },
        (sid) => servers.get(sid),
      ),
    };
  }

  /**
   * Imports an agent file: checked whole first (a bad file changes nothing). Its agents get new
   * ids, and a name already taken gets a suffix; a provider this browser lacks is added without
   * a key (it says so), matched by kind and base URL otherwise.
   */
  async importFile(json: string): Promise<AgentImportResult> {
    const file = parseAgentFile(json, { toolNames });
    const providers = await this.store.listProviders();
    const providerIds = new Map<string, string>();
    const addedProviders: string[] = [];
    const matchOf = (ref: (typeof file.providers)[number]) =>
      providers.find((p) => p.id === ref.id && p.kind === ref.kind) ??
      // A local model is its file: the same file name, not the same (empty) address.
      (ref.kind === 'local-gguf'
        ? providers.find((p) => p.kind === ref.kind && p.defaultModel === ref.defaultModel)
        : providers.find((p) => p.kind === ref.kind && sameUrl(p.baseUrl, ref.baseUrl)));
    // A local model cannot come in a file: checked before anything is added.
    const missing = file.providers.filter((ref) => ref.kind === 'local-gguf' && !matchOf(ref));
    if (missing.length > 0) {
      const names = missing.map((ref) => ref.defaultModel || ref.name).join(', ');
      throw new InvalidRequestError(
        `These agents run on a local model this browser does not have (${names}): add its file in Settings → Providers → Add local model, then import again`,
      );
    }
    for (const ref of file.providers) {
      const match = matchOf(ref);
      if (match) {
        providerIds.set(ref.id, match.id);
        continue;
      }
      const taken = new Set(providers.map((p) => p.name));
      let name = ref.name;
      for (let n = 2; taken.has(name); n++) name = `${ref.name} (${n})`;
      const { kind, baseUrl, defaultModel } = ref;
      const added = await this.providers.save({ kind, name, baseUrl, defaultModel });
      providers.push({ ...ref, id: added.id, name, updatedAt: added.updatedAt });
      providerIds.set(ref.id, added.id);
      addedProviders.push(name);
    }
    // Tool servers by address: one this browser has, or one added without its headers.
    const serverIds = new Map<string, string>();
    for (const ref of file.toolServers ?? []) {
      const known = (await this.toolServers?.list())?.find((server) =>
        sameUrl(server.url, ref.url),
      );
      const id = known?.id ?? (await this.toolServers?.save({ name: ref.name, url: ref.url }))?.id;
      if (id) serverIds.set(ref.id, id);
    }
    const ids = new Map(file.agents.map((spec) => [spec.id, newId()]));
    const names = new Set((await this.store.listAgentSpecs()).map((spec) => spec.name));
    const now = Date.now();
    const records: AgentSpecRecord[] = file.agents.map((spec) => {
      // One of the same name here: both renamed alike (calc_2, "Calculator 2").
      let name = spec.name;
      let n = 1;
      while (names.has(name)) name = `${spec.name}_${++n}`;
      names.add(name);
      const { displayName } = spec;
      return {
        ...spec,
        id: ids.get(spec.id)!,
        name,
        ...(displayName !== undefined && n > 1 ? { displayName: `${displayName} ${n}` } : {}),
        providerId: providerIds.get(spec.providerId)!,
        subAgentIds: spec.subAgentIds.map((childId) => ids.get(childId)!),
        ...(spec.agentToolIds
          ? { agentToolIds: spec.agentToolIds.map((calledId) => ids.get(calledId)!) }
          : {}),
        ...(spec.toolServers
          ? {
              toolServers: spec.toolServers.map((use) => ({
                ...use,
                serverId: serverIds.get(use.serverId) ?? use.serverId,
              })),
            }
          : {}),
        updatedAt: now,
      };
    });
    await this.store.putAgentSpecs(records);
    this.options.broadcast({ type: 'agents-changed' });
    const providerNames = new Map(providers.map((p) => [p.id, p.name]));
    return {
      imported: records.map((record) => infoOf(record, providerNames.get(record.providerId))),
      addedProviders,
    };
  }

  /** How to build the agent of `agent:<id>`, with the version of everything it is built from. */
  async source(agentId: string): Promise<AgentSource & { resumable: boolean }> {
    const specs = await this.specsById();
    const root = specs.get(agentId.slice(SPEC_PREFIX.length));
    if (!root) {
      throw new InvalidRequestError(
        `Agent deleted: this session's agent (${agentId}) no longer exists. Choose another agent.`,
      );
    }
    const lookup = (id: string) => specs.get(id);
    const tree = specTree(root, lookup);
    const records = new Map(
      await Promise.all(
        [...new Set(tree.map((spec) => spec.providerId))].map(
          async (id) => [id, await this.providers.record(id)] as const,
        ),
      ),
    );
    const servers = new Map(
      await Promise.all(
        [
          ...new Set(tree.flatMap((spec) => (spec.toolServers ?? []).map((use) => use.serverId))),
        ].map(async (id) => [id, await this.toolServers?.record(id)] as const),
      ),
    );
    // Each agent's search_knowledge, over its bases as they are named now.
    const knowledge = new Map(
      await Promise.all(
        tree.flatMap((spec) =>
          spec.knowledgeBaseIds?.length && this.knowledge
            ? [this.knowledge.toolFor(spec.knowledgeBaseIds).then((t) => [spec.id, t] as const)]
            : [],
        ),
      ),
    );
    const version = JSON.stringify([
      tree.map((spec) => [spec.id, spec.updatedAt]),
      [...knowledge.values()].map((tool) => tool.description),
      [...records.values()].map((record) => [record.id, record.updatedAt]),
      [...servers.values()].map((server) => [server?.id, server?.updatedAt]),
    ]);
    return {
      version,
      resumable: root.resumable,
      create: () =>
        buildSpecAgent(root, {
          lookup,
          model: (spec) => this.providers.model(records.get(spec.providerId)!, spec.model),
          knowledge: (spec) => knowledge.get(spec.id),
          // On by default where the window is known: compaction.ts.
          contextCompactors: (spec, model) =>
            defaultCompactors(spec, model, () =>
              agentWindow(this.providers, records.get(spec.providerId)!, spec.model),
            ),
          // Every tool under the user's approval policies: an MCP tool asks unless told not to.
          tools: (names) => builtinTools(names).map((tool) => this.underPolicy(tool)),
          toolsets: (spec) =>
            (spec.toolServers ?? []).flatMap((use) => {
              const server = servers.get(use.serverId);
              const toolServers = this.toolServers;
              if (!server || !toolServers) return [];
              return [
                new PolicyToolset(
                  toolServers.toolset(server, use.tools),
                  toolServers.policyOf,
                  'ask',
                ),
              ];
            }),
        }),
    };
  }

  private async problems(spec: AgentSpec): Promise<string[]> {
    const problems = agentSpecProblems(spec, { toolNames });
    if (problems.length > 0) return problems;
    const specs = await this.specsById();
    if (!(await this.store.getProvider(spec.providerId)))
      problems.push('Choose a provider (add one in Settings → Providers)');
    for (const use of spec.toolServers ?? [])
      if (!(await this.toolServers?.stored(use.serverId)))
        problems.push(`A tool server it uses no longer exists (${use.serverId})`);
    for (const id of (await this.knowledge?.missing(spec.knowledgeBaseIds ?? [])) ?? [])
      problems.push(`A knowledge base it searches no longer exists (${id})`);
    if ([...specs.values()].some((other) => other.id !== spec.id && other.name === spec.name))
      problems.push(`Another agent is called ${spec.name}: give this one its own name`);
    specs.set(spec.id, { ...spec, updatedAt: 0 });
    problems.push(...specTreeProblems(spec, (id) => specs.get(id)));
    if (problems.length > 0) return problems;
    // An agent above this one must still make a valid tree (the change may put one agent twice in
    // it).
    for (const other of specs.values()) {
      if (
        other.id !== spec.id &&
        specTree(other, (id) => specs.get(id)).includes(specs.get(spec.id)!)
      )
        problems.push(...specTreeProblems(other, (id) => specs.get(id)));
    }
    return [...new Set(problems)];
  }

  private async specsById(): Promise<Map<string, AgentSpecRecord>> {
    return new Map((await this.store.listAgentSpecs()).map((spec) => [spec.id, spec]));
  }
}

function infoOf(record: AgentSpecRecord, providerName: string | undefined): AgentSpecInfo {
  return {
    ...specFields(record),
    agentId: `${SPEC_PREFIX}${record.id}`,
    updatedAt: record.updatedAt,
    ...(providerName !== undefined ? { providerName } : {}),
  };
}

const newId = () => crypto.randomUUID().slice(0, 8);

const sameUrl = (a: string, b: string) => withoutTrailingSlashes(a) === withoutTrailingSlashes(b);

// A loop, not /\/+$/: that pattern is retried at each slash of a long run, quadratic on a URL
// from an agent file.
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url[end - 1] === '/') end--;
  return url.slice(0, end);
}
