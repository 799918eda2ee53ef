// compileFlow: a flow file (docs/flows.md) → a BaseAgent the Runner runs like any other.

import { FlowValidationError } from '../core/errors.ts';
import type { BaseAgent } from '../agents/base-agent.ts';
import { LlmAgent } from '../agents/llm-agent.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseLlm, JsonSchema } from '../models/llm.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { MappedToolset, isToolset, type BaseToolset } from '../tools/base-toolset.ts';
import { PolicyTool, type PolicyLookup } from '../tools/tool-policy.ts';
import { FlowWorkflow, type FlowGraph } from './flow-workflow.ts';
import { flowScope } from './flow-scope.ts';
import { nodeInput } from './flow-events.ts';
import {
  flowAgentName,
  type Flow,
  type FlowEdge,
  type FlowNode,
  type HistoryMode,
  type KnowledgeRef,
  type SubflowNode,
} from './flow.ts';
import { reachability } from './frontier.ts';
import { historySelector } from './history.ts';
import { ApprovalRequiredTool, ModelNodeAgent, ToolNodeAgent } from './node-agents.ts';
import { outputInstruction, outputSchema, parseStructuredOutput } from './structured-output.ts';
import { SubflowAgent, prefixedFlow } from './subflow.ts';
import { evaluateTemplate, renderTemplate } from './templates.ts';
import { setOwn } from '../core/state.ts';
import type { BaseContextCompactor } from '../context/base-context-compactor.ts';
import { assertValidFlow } from './validate.ts';
import { iterationEnds } from './validate-v2.ts';
import type { FlowKnowledge } from './flow-knowledge.ts';
import {
  knowledgeOf,
  knowledgeProblem,
  knowledgeTools,
  retrieverAgent,
} from './knowledge-steps.ts';

export { flowAgentName } from './flow.ts';

export interface CompileFlowOptions {
  /** The model of every node that names none (unless the start node names a default). */
  model: BaseLlm;
  /** Models that nodes (and the start node's default) may name. */
  models?: Readonly<Record<string, BaseLlm>>;
  /**
   * The tools nodes may name: a list (by each tool's name), or a record by the name nodes use,
   * whose values may also be toolsets (an MCP server's tool, named `Server/tool` in the app).
   */
  tools?: Readonly<Record<string, BaseTool | BaseToolset>> | readonly BaseTool[];
  /** The user's approval policies: every tool of the flow is under them (they beat a node's rule). */
  policyOf?: PolicyLookup;
  /** The other flows an Execute Flow node may run, by name (compiled with these same options). */
  flows?: Readonly<Record<string, unknown>>;
  /**
   * The context compactors (src/context) of a model node (agent, llm, condition agent) on
   * `model`: none when absent. They compact the flow's conversation before the node's call.
   */
  contextCompactors?: (model: BaseLlm) => readonly BaseContextCompactor[];
  /**
   * What the nodes' knowledge references search (the app's knowledge bases). Without it a flow
   * with knowledge still compiles; a node that searches fails when it is reached.
   */
  knowledge?: FlowKnowledge;
}

/**
 * Checks the flow and builds its agent. An invalid flow throws one FlowValidationError listing
 * every problem with its node id; nothing runs. The agent's name is the flow's name made an
 * identifier (see flowAgentName).
 */
export function compileFlow(input: unknown, options: CompileFlowOptions): BaseAgent {
  return compileWithin(input, options, []);
}

/** `running`: the flows whose Execute Flow nodes lead here (a flow may not run itself). */
function compileWithin(
  input: unknown,
  options: CompileFlowOptions,
  running: readonly string[],
): FlowWorkflow {
  const tools = toolMap(options.tools);
  const models = options.models ?? {};
  const flow = assertValidFlow(input, {
    tools: [...tools.keys()],
    models: Object.keys(models),
    ...(options.flows ? { flows: Object.keys(options.flows) } : {}),
  });
  const name = flowAgentName(flow.name);
  if (flow.nodes.some((node) => node.id === name)) {
    throw new FlowValidationError([
      { nodeId: name, message: `A node id cannot be the flow's agent name ${name}` },
    ]);
  }
  const start = flow.nodes.find((node) => node.type === 'start');
  const defaultModel =
    (start?.type === 'start' && start.model && models[start.model]) || options.model;
  const edges = new Map<string, FlowEdge[]>();
  const successors = new Map<string, string[]>();
  for (const edge of flow.edges) {
    edges.set(edge.from, [...(edges.get(edge.from) ?? []), edge]);
    successors.set(edge.from, [...(successors.get(edge.from) ?? []), edge.to]);
  }
  const iterations = iterationEntries(flow);
  for (const node of flow.nodes) {
    const more = [
      ...(node.type === 'loop' ? [node.to] : []),
      ...(iterations.get(node.id) ?? []),
      // Any node inside an Iteration may end its item, and so lead back to the Iteration.
      ...(node.parent ? [node.parent] : []),
    ];
    if (more.length > 0) successors.set(node.id, [...(successors.get(node.id) ?? []), ...more]);
  }
  const nodes = new Map(flow.nodes.map((node) => [node.id, node]));
  const agents = new Map<string, BaseAgent>();
  const build: NodeBuild = {
    flow,
    name,
    nodes,
    edges,
    tools,
    models,
    defaultModel,
    policyOf: options.policyOf,
    compactors: options.contextCompactors,
    knowledge: options.knowledge,
    subflow: (node) => {
      const chain = [...(running.length === 0 ? [flow.name] : running), node.flow];
      if (chain.slice(0, -1).includes(node.flow))
        throw new FlowValidationError([
          {
            nodeId: node.id,
            message: `running flow "${node.flow}" here would run it inside itself (${chain.join(' → ')})`,
          },
        ]);
      const other = options.flows?.[node.flow];
      const inner = compileWithin(prefixedFlow(other as Flow, node.id), options, chain);
      return new SubflowAgent(node.id, inner, name, (ctx) =>
        node.input === undefined
          ? undefined
          : renderTemplate(node.input, scopeOf(ctx, build, node)),
      );
    },
  };
  const unready = new Map<string, Error>();
  for (const node of flow.nodes) {
    const agent = nodeAgent(node, build);
    if (agent) agents.set(node.id, agent);
    const problem = knowledgeProblem(node.id, searchedBy(node, build), options.knowledge);
    if (problem) unready.set(node.id, problem);
  }
  const graph: FlowGraph = {
    unready,
    flow,
    nodes,
    edges,
    reach: reachability(successors),
    agents,
    iterations,
  };
  return new FlowWorkflow(name, graph);
}

interface NodeBuild {
  subflow: (node: SubflowNode) => BaseAgent;
  flow: Flow;
  name: string;
  nodes: ReadonlyMap<string, FlowNode>;
  edges: ReadonlyMap<string, readonly FlowEdge[]>;
  tools: ReadonlyMap<string, BaseTool | BaseToolset>;
  models: Readonly<Record<string, BaseLlm>>;
  defaultModel: BaseLlm;
  policyOf: PolicyLookup | undefined;
  compactors: ((model: BaseLlm) => readonly BaseContextCompactor[]) | undefined;
  knowledge: FlowKnowledge | undefined;
}

/** The knowledge a node searches: its own, and an LLM node's Tool nodes' (it offers their tools). */
function searchedBy(node: FlowNode, build: NodeBuild) {
  if (node.type !== 'llm') return knowledgeOf(node);
  return (build.edges.get(node.id) ?? [])
    .map((edge) => build.nodes.get(edge.to))
    .flatMap((next) => (next?.type === 'tool' ? knowledgeOf(next) : []));
}

function nodeAgent(node: FlowNode, build: NodeBuild): BaseAgent | undefined {
  const pick = (
    names: readonly string[] | undefined,
    approval?: boolean,
    prompt?: string,
    knowledge: readonly KnowledgeRef[] = [],
  ) => {
    const wrap = (found: BaseTool) => {
      const asked = approval ? new ApprovalRequiredTool(found, prompt) : found;
      return build.policyOf ? new PolicyTool(asked, build.policyOf) : asked;
    };
    return [
      ...(names ?? []).map((tool) => {
        const found = build.tools.get(tool)!;
        return isToolset(found) ? new MappedToolset(found, wrap) : wrap(found);
      }),
      ...knowledgeTools(knowledge, build.knowledge).map(wrap),
    ];
  };
  switch (node.type) {
    case 'tool':
      return new ToolNodeAgent({
        name: node.id,
        flowName: build.name,
        tools: pick(node.tools, node.requireApproval, node.approvalPrompt, node.knowledge),
      });
    case 'retriever':
      return retrieverAgent(node, build.name, build.knowledge, (ctx) => scopeOf(ctx, build, node));
    case 'toolCall': {
      const found = node.tool ? build.tools.get(node.tool) : undefined;
      // A tool server's tool is listed by its own name (after `Server/`).
      const callName = !found
        ? ''
        : isToolset(found)
          ? node.tool.slice(node.tool.lastIndexOf('/') + 1)
          : found.name;
      return new ToolNodeAgent({
        name: node.id,
        flowName: build.name,
        tools: node.tool ? pick([node.tool], node.requireApproval, node.approvalPrompt) : [],
        ownCall: (ctx) => {
          if (!callName) return undefined;
          const scope = scopeOf(ctx, build, node);
          const args: Record<string, unknown> = {};
          for (const [key, template] of Object.entries(node.args ?? {}))
            setOwn(args, key, evaluateTemplate(template, scope));
          return { name: callName, args };
        },
      });
    }
    case 'subflow':
      return build.subflow(node);
    case 'agent':
      return new LlmAgent({
        ...modelNode(node, build, node.instruction),
        tools: pick(node.tools, node.requireApproval, node.approvalPrompt, node.knowledge),
      });
    case 'llm': {
      const fields = node.output ?? [];
      // The llm node offers its own tools and those of the tool nodes it leads to.
      const toolNodes = (build.edges.get(node.id) ?? [])
        .map((edge) => build.nodes.get(edge.to))
        .flatMap((next) => (next?.type === 'tool' ? next.tools : []));
      const known = searchedBy(node, build);
      const knowledge = known.filter((ref, i) => known.findIndex((k) => k.name === ref.name) === i);
      return new ModelNodeAgent({
        ...modelNode(node, build, node.instruction ?? ''),
        tools: pick([...new Set([...(node.tools ?? []), ...toolNodes])], false, '', knowledge),
        ...(fields.length > 0
          ? {
              responseSchema: outputSchema(fields),
              replyInstruction: outputInstruction(fields),
              checkReply: (text: string) => {
                const parsed = parseStructuredOutput(text, fields);
                return parsed.ok
                  ? undefined
                  : `the reply is not the structured output asked for: ${parsed.error}`;
              },
            }
          : {}),
      });
    }
    case 'conditionAgent':
      return new ModelNodeAgent({
        ...modelNode(node, build, node.instruction),
        responseSchema: scenarioSchema(node.scenarios),
        replyInstruction:
          `Answer with the one scenario that fits best, as JSON {"output": "<scenario>"}. ` +
          `The scenarios: ${node.scenarios.map((s) => JSON.stringify(s)).join(', ')}.`,
      });
    default:
      return undefined;
  }
}

/** The options every model-calling node shares: its model, templated instruction and history. */
function modelNode(
  node: FlowNode & { model?: string; history?: HistoryMode; historyWindow?: number },
  build: NodeBuild,
  instruction: string,
) {
  const model = (node.model && build.models[node.model]) || build.defaultModel;
  const compactors = build.compactors?.(model) ?? [];
  return {
    name: node.id,
    model,
    ...(compactors.length > 0 ? { contextCompactors: compactors } : {}),
    instruction: (ctx: InvocationContext) => renderTemplate(instruction, scopeOf(ctx, build, node)),
    history: historySelector(node.history ?? 'all', build.name, node.historyWindow),
    // A node hands on to the flow's next node, never to another agent.
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  };
}

/** Each Iteration's first nodes: those inside it with no edge into them from inside. */
function iterationEntries(flow: Flow): Map<string, string[]> {
  const entries = new Map<string, string[]>();
  for (const node of flow.nodes) {
    if (node.type !== 'iteration') continue;
    const inside = flow.nodes.filter((child) => child.parent === node.id).map((c) => c.id);
    entries.set(node.id, iterationEnds(inside, flow.edges).entries);
  }
  return entries;
}

/** What a node's templates see while its agent runs: `{{output}}` is what led to it. */
function scopeOf(ctx: InvocationContext, build: NodeBuild, node: FlowNode) {
  return flowScope(
    ctx,
    build.name,
    nodeInput(ctx.activeView.peek(), build.name, node.id, ctx.branch),
    node.parent,
  );
}

function scenarioSchema(scenarios: readonly string[]): JsonSchema {
  return {
    type: 'object',
    properties: { output: { type: 'string', enum: [...scenarios] } },
    required: ['output'],
  };
}

function toolMap(tools: CompileFlowOptions['tools']): Map<string, BaseTool | BaseToolset> {
  if (!tools) return new Map();
  if (Array.isArray(tools))
    return new Map((tools as readonly BaseTool[]).map((tool) => [tool.name, tool]));
  return new Map(Object.entries(tools as Record<string, BaseTool | BaseToolset>));
}
