// The app's flows: the built-in examples (read-only, `example:<name>`) and the user's own
// (`flow:<id>`, in IndexedDB), checked as they are typed, saved only when valid, and turned into
// agents for the runners. Rules:
// - a flow that does not validate (or does not compile) is never stored;
// - an agent is built from the flow as stored now: `source` gives a version with it, and the
//   runtime rebuilds its cached runner when the version changes (an edit, in any tab);
// - deleting a flow keeps the sessions that used it; running one says the flow was deleted.

import type { FlowKnowledge } from '../../src/flows/flow-knowledge.ts';
import type { AppKnowledge } from '../knowledge/knowledge.ts';
import { attachmentPolicy } from '../../src/models/attachments.ts';
import {
  EXAMPLE_FLOWS,
  FLOW_DEMO_TOOLS,
  createFlowAgent,
  type FlowAgentTools,
} from '../../src/demos/flow-demos.ts';
import type { DemoTiming } from '../../src/demos/writing-workflow.ts';
import { FLOW_LIMITS, type Flow, type FlowProblem } from '../../src/flows/flow.ts';
import { validateFlow } from '../../src/flows/validate.ts';
import {
  InvalidRequestError,
  SessionNotFoundError,
  isTrellisError,
  type BaseAgent,
  type BaseContextCompactor,
  type BaseLlm,
  type Event,
  type Runner,
} from '../../src/index.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import {
  DEFINITION_FILE_LIMITS,
  jsonTextProblem,
  jsonTreeProblem,
} from '../../src/core/json-limits.ts';
import type { PolicyLookup } from '../../src/tools/tool-policy.ts';
import type { FlowToolSet } from '../tool-servers/tool-servers.ts';
import { parseJson } from './flow-json.ts';
import { modelNames, reachableSubflows, toolRefs, type NamedFlow } from './flow-refs.ts';
import type {
  AgentInfo,
  FlowCheck,
  FlowInfo,
  RuntimeBroadcast,
  SaveFlowResult,
} from '../protocol.ts';

export const EXAMPLE_PREFIX = 'example:';
export const FLOW_PREFIX = 'flow:';

export const isFlowAgent = (agentId: string) =>
  agentId.startsWith(EXAMPLE_PREFIX) || agentId.startsWith(FLOW_PREFIX);

/** How to build an agent, and which version of its definition that is. */
export interface AgentSource {
  version: string;
  /** Builds the agent; demo models take `timing` (the demo pace now in force). */
  create: (timing: DemoTiming | undefined) => BaseAgent;
}

export interface AppFlowsOptions {
  /** Pace of the demo model (tests make it instant). */
  timing?: DemoTiming | undefined;
  /** Tells every tab that the flows changed. */
  broadcast: (message: RuntimeBroadcast) => void;
}

/**
 * The models a flow's nodes may name: `Provider name/model` for the user's providers (Settings →
 * Providers). `resolve` builds the ones named; `choices` lists each provider's default model, for
 * messages and the node form.
 */
export interface FlowModels {
  resolve(names: readonly string[]): Promise<FlowModelSet>;
  /** A resolved model's context compactors (the app's default: workers/agents/compaction.ts). */
  compactors?(model: BaseLlm): BaseContextCompactor[];
}

export interface FlowModelSet {
  models: Record<string, BaseLlm>;
  /** Every name a node may use now: the ones resolved, and each provider's default model. */
  known: string[];
  /** Changes when a provider the flow uses changes (its agent is then built again). */
  version: string;
}

const NO_MODELS: FlowModels = {
  resolve: async () => ({ models: {}, known: [], version: '' }),
};

/**
 * The tool servers' tools a flow's nodes may name (`Server name/tool`), and the user's approval
 * policies, which every tool of a flow is under.
 */
export interface FlowTools {
  resolve(refs: readonly string[]): Promise<FlowToolSet>;
  policyOf: PolicyLookup;
}

const NO_TOOLS: FlowTools = {
  resolve: async () => ({ tools: {}, servers: [], version: '' }),
  policyOf: async () => undefined,
};

export class AppFlows {
  private readonly timing: DemoTiming | undefined;

  constructor(
    private readonly store: IndexedDbAppStore,
    private readonly options: AppFlowsOptions,
    private readonly flowModels: FlowModels = NO_MODELS,
    private readonly flowTools: FlowTools = NO_TOOLS,
  ) {
    this.timing = options.timing;
  }

  /** The examples, then the user's flows by name. */
  async list(): Promise<FlowInfo[]> {
    const records = await this.store.listFlows();
    const own = records
      .map((record): FlowInfo => ({
        ...describe(record.flow, false),
        id: `${FLOW_PREFIX}${record.id}`,
        updatedAt: record.updatedAt,
      }))
      .sort((a, b) => a.name.localeCompare(b.name));
    return [...examples(), ...own];
  }

  async get(id: string): Promise<FlowInfo> {
    const found = (await this.list()).find((flow) => flow.id === id);
    if (!found) throw new InvalidRequestError(`There is no flow ${id}`);
    return found;
  }

  /** The flows as agents of the Agent select. */
  async agentInfos(): Promise<AgentInfo[]> {
    return (await this.list()).map(({ id, flow, readOnly }) => ({
      id,
      // Cut short: a flow saved before names were capped may have a name of any length.
      name: `${clip(flow.name, FLOW_LIMITS.name)} (${readOnly ? 'example flow' : 'flow'})`,
      description:
        flow.description ??
        'A flow (graph workflow): on the offline demo model, or the providers’ models its nodes name.',
      kind: readOnly ? 'example' : 'flow',
      flow,
      attachments: attachmentPolicy('demo'),
    }));
  }

  /** Whether `agentId` names a flow that exists. */
  async exists(agentId: string): Promise<boolean> {
    return (await this.list()).some((flow) => flow.id === agentId);
  }

  /** What a flow checks out as, without saving it. */
  async check(json: string, id?: string): Promise<FlowCheck> {
    const tooBig = jsonTextProblem(json, DEFINITION_FILE_LIMITS, 'the flow');
    if (tooBig) return { problems: [{ message: tooBig }] };
    const parsed = parseJson(json);
    if (!parsed.ok) {
      return { problems: [{ message: `JSON: ${parsed.error.message}` }], parseError: parsed.error };
    }
    const flow = parsed.value;
    // Too deep or too long to be sent to the page for drawing (structured clone overflows): the
    // problem alone goes back.
    const hostile = jsonTreeProblem(flow, DEFINITION_FILE_LIMITS);
    if (hostile) return { problems: [{ message: hostile }] };
    const byName = await this.byName();
    const subflows = reachableSubflows(flow, byName);
    const within = [flow, ...[...subflows.values()].map((other) => other.flow)];
    const { models, known } = await this.flowModels.resolve(within.flatMap(modelNames));
    const { tools, servers } = await this.flowTools.resolve(within.flatMap(toolRefs));
    const problems = validateFlow(flow, {
      tools: FLOW_DEMO_TOOLS,
      toolServers: servers,
      flows: [...byName.keys()],
      ...(modelNames(flow).length > 0 ? { models: known } : {}),
    });
    if (problems.length === 0)
      problems.push(
        ...compileProblems(flow as Flow, this.timing, models, {
          tools,
          flows: flowsOf(subflows),
        }),
      );
    // `null`, a list or a number is reported by validateFlow: it has no name to compare.
    const name = isRecord(flow) ? flow.name : undefined;
    const others = (await this.list()).filter((other) => other.id !== id);
    if (typeof name === 'string' && others.some((other) => other.name === name))
      problems.push({ message: `another flow is called "${name}": give this one its own name` });
    return { flow, problems };
  }

  /** Saves a valid flow: a new one without `id`, else an edit of a user's flow. */
  async save(json: string, id?: string): Promise<SaveFlowResult> {
    if (id !== undefined && !id.startsWith(FLOW_PREFIX)) {
      throw new InvalidRequestError(
        id.startsWith(EXAMPLE_PREFIX)
          ? 'The example flows are read-only: duplicate one to edit a copy'
          : `There is no flow ${id}`,
      );
    }
    const checked = await this.check(json, id);
    if (checked.problems.length > 0) return checked;
    const recordId = id ? id.slice(FLOW_PREFIX.length) : crypto.randomUUID().slice(0, 8);
    if (id && !(await this.store.getFlow(recordId)))
      throw new InvalidRequestError(`Flow deleted: ${id} no longer exists; save it as a copy`);
    const flow = checked.flow as Flow;
    const updatedAt = Date.now();
    await this.store.putFlow({ id: recordId, flow, updatedAt });
    this.options.broadcast({ type: 'flows-changed' });
    return {
      ...checked,
      saved: { ...describe(flow, false), id: `${FLOW_PREFIX}${recordId}`, updatedAt },
    };
  }

  /** An editable copy of a flow (an example, usually), under a name of its own. */
  async duplicate(id: string): Promise<FlowInfo> {
    const { flow } = await this.get(id);
    const names = new Set((await this.list()).map((other) => other.name));
    // Room for the suffix within the longest name.
    const base = flow.name.slice(0, FLOW_LIMITS.name - '-copy-999'.length);
    let name = `${base}-copy`;
    for (let n = 2; names.has(name); n++) name = `${base}-copy-${n}`;
    const { saved, problems } = await this.save(JSON.stringify({ ...flow, name }));
    // The original was valid, and so is its copy: a problem here is a bug.
    if (!saved) throw new Error(`The copy of ${id} did not validate: ${problems[0]?.message}`);
    return saved;
  }

  async remove(id: string): Promise<void> {
    if (!id.startsWith(FLOW_PREFIX))
      throw new InvalidRequestError(`Only your own flows can be deleted`);
    await this.store.deleteFlow(id.slice(FLOW_PREFIX.length));
    this.options.broadcast({ type: 'flows-changed' });
  }

  /** How to build the agent of a flow id; a deleted flow is a clear error. */
  async source(agentId: string): Promise<AgentSource> {
    if (agentId.startsWith(EXAMPLE_PREFIX)) {
      const flow = EXAMPLE_FLOWS.find((example) => exampleId(example) === agentId);
      if (!flow) throw new InvalidRequestError(`There is no example flow ${agentId}`);
      const { policyOf } = this.flowTools;
      return {
        version: 'example',
        create: (timing) => createFlowAgent(flow, timing, {}, { policyOf }),
      };
    }
    const record = await this.store.getFlow(agentId.slice(FLOW_PREFIX.length));
    if (!record) {
      throw new InvalidRequestError(
        `Flow deleted: this session's flow (${agentId}) no longer exists. Choose another agent.`,
      );
    }
    const subflows = reachableSubflows(record.flow, await this.byName());
    const within = [record.flow, ...[...subflows.values()].map((other) => other.flow)];
    const [{ models, version }, toolSet] = await Promise.all([
      this.flowModels.resolve(within.flatMap(modelNames)),
      this.flowTools.resolve(within.flatMap(toolRefs)),
    ]);
    const { policyOf } = this.flowTools;
    // An edit of a flow it runs rebuilds it too.
    const others = [...subflows.values()].map((other) => other.updatedAt ?? 0).join(',');
    return {
      version: `${record.updatedAt} ${version} ${toolSet.version} ${others}`,
      create: (timing) =>
        createFlowAgent(record.flow, timing, models, {
          tools: toolSet.tools,
          policyOf,
          flows: flowsOf(subflows),
          contextCompactors: (model) => this.flowModels.compactors?.(model) ?? [],
          ...(this.knowledge ? { knowledge: this.knowledge } : {}),
        }),
    };
  }

  private knowledge: FlowKnowledge | undefined;
  /** Retrievers and knowledge tools search the app's bases (workers/knowledge/knowledge.ts). */
  useKnowledge(knowledge: AppKnowledge): void {
    this.knowledge = {
      search: (baseIds, query, options) => knowledge.hits(baseIds, query, options),
    };
  }

  /** Every flow (examples and the user's) by name: what an Execute Flow node may run. */
  private async byName(): Promise<Map<string, NamedFlow>> {
    const records = await this.store.listFlows();
    return new Map([
      ...EXAMPLE_FLOWS.map((flow) => [flow.name, { flow }] as const),
      ...records.map((record) => [record.flow.name, record] as const),
    ]);
  }

  /** The names of the user's flows that name a tool of the tool server called `serverName`. */
  async usingToolServer(serverName: string): Promise<string[]> {
    return (await this.store.listFlows())
      .filter((record) => toolRefs(record.flow).some((ref) => ref.startsWith(`${serverName}/`)))
      .map((record) => record.flow.name);
  }
}

const exampleId = (flow: Flow) => `${EXAMPLE_PREFIX}${flow.name}`;

const flowsOf = (found: ReadonlyMap<string, NamedFlow>) =>
  Object.fromEntries([...found].map(([name, { flow }]) => [name, flow]));

function clip(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length - 1)}…` : text;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function examples(): FlowInfo[] {
  return EXAMPLE_FLOWS.map((flow) => ({ ...describe(flow, true), id: exampleId(flow) }));
}

function describe(flow: Flow, readOnly: boolean): Omit<FlowInfo, 'id'> {
  return {
    name: flow.name,
    description: flow.description ?? '',
    readOnly,
    flow,
  };
}

/** What compiling finds that validation does not (a model the demo does not have, say). */
function compileProblems(
  flow: Flow,
  timing: DemoTiming | undefined,
  models: Readonly<Record<string, BaseLlm>>,
  extra: FlowAgentTools,
): FlowProblem[] {
  try {
    createFlowAgent(flow, timing, models, extra);
    return [];
  } catch (error) {
    if (isTrellisError(error, 'FlowValidationError'))
      return [...(error as unknown as { problems: FlowProblem[] }).problems];
    return [{ message: (error as Error).message }];
  }
}

/**
 * Rewinds a flow session to just after a node's checkpoint (before the node ran; for an ADK 2.0
 * workflow, the event before the node's first), and makes the invocation resumable from that node: the resume banner lists runs from the runs store, so the
 * invocation gets a record as an interrupted run if it has none.
 */
/** The owner of the record a rewind to a checkpoint leaves: the run was cut off on purpose. */
export const REWIND_OWNER = 'rewind';

export async function rewindToCheckpoint(
  runner: Runner,
  userId: string,
  sessionId: string,
  checkpointEventId: string,
): Promise<Event> {
  const { sessionService, appName } = runner;
  const session = await sessionService.getSession({ appName, userId, sessionId });
  if (!session) throw new SessionNotFoundError(sessionId);
  const index = session.events.findIndex((event) => event.id === checkpointEventId);
  const checkpoint = session.events[index];
  // A flow's checkpoint event, or the event just before an ADK 2.0 workflow node's first one.
  const flowCheckpoint = typeof checkpoint?.actions.agentState?.current_node === 'string';
  const next = session.events
    .slice(index + 1)
    .find((event) => event.invocationId === checkpoint?.invocationId);
  if (!checkpoint || (!flowCheckpoint && next?.nodeInfo?.path === undefined))
    throw new InvalidRequestError(`There is no checkpoint ${checkpointEventId} in this session`);
  const marker = await runner.rewindAsync({
    userId,
    sessionId,
    rewindAfterEventId: checkpointEventId,
  });
  const { invocationId } = checkpoint;
  const listed = await runner.listInterruptedInvocations({ userId, sessionId });
  if (!listed.some((run) => run.invocationId === invocationId)) {
    const now = Date.now();
    await sessionService.putRun({
      appName,
      userId,
      sessionId,
      invocationId,
      agentName: flowCheckpoint ? checkpoint.author : runner.agent.name,
      status: 'interrupted',
      startedAt: now,
      updatedAt: now,
      heartbeatAt: now,
      ownerId: REWIND_OWNER,
    });
  }
  return marker;
}
