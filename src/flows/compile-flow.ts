// compileFlow: a flow file (docs/flows.md) → a BaseAgent the Runner runs like any other.

import { FlowValidationError } from '../core/errors.ts';
import type { BaseAgent } from '../agents/base-agent.ts';
import { LlmAgent } from '../agents/llm-agent.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseLlm, JsonSchema } from '../models/llm.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { MappedToolset, isToolset, type BaseToolset } from '../tools/base-toolset.ts';
import { PolicyTool, type PolicyLookup } from '../tools/tool-policy.ts';
import { FlowWorkflow, flowScope, type FlowGraph } from './flow-workflow.ts';
import { nodeInput } from './flow-events.ts';
import {
  flowAgentName,
  type Flow,
  type FlowEdge,
  type FlowNode,
  type HistoryMode,
} from './flow.ts';
import { reachability } from './frontier.ts';
import { historySelector } from './history.ts';
import { ApprovalRequiredTool, ModelNodeAgent, ToolNodeAgent } from './node-agents.ts';
import { outputInstruction, outputSchema, parseStructuredOutput } from './structured-output.ts';
import { renderTemplate } from './templates.ts';
import { assertValidFlow } from './validate.ts';

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
}

/**
 * Checks the flow and builds its agent. An invalid flow throws one FlowValidationError listing
 * every problem with its node id; nothing runs. The agent's name is the flow's name made an
 * identifier (see flowAgentName).
 */
export function compileFlow(input: unknown, options: CompileFlowOptions): BaseAgent {
  const tools = toolMap(options.tools);
  const models = options.models ?? {};
  const flow = assertValidFlow(input, {
    tools: [...tools.keys()],
    models: Object.keys(models),
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
  for (const node of flow.nodes) {
    if (node.type === 'loop')
      successors.set(node.id, [...(successors.get(node.id) ?? []), node.to]);
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
  };
  for (const node of flow.nodes) {
    const agent = nodeAgent(node, build);
    if (agent) agents.set(node.id, agent);
  }
  const graph: FlowGraph = { flow, nodes, edges, reach: reachability(successors), agents };
  return new FlowWorkflow(name, graph);
}

interface NodeBuild {
  flow: Flow;
  name: string;
  nodes: ReadonlyMap<string, FlowNode>;
  edges: ReadonlyMap<string, readonly FlowEdge[]>;
  tools: ReadonlyMap<string, BaseTool | BaseToolset>;
  models: Readonly<Record<string, BaseLlm>>;
  defaultModel: BaseLlm;
  policyOf: PolicyLookup | undefined;
}

function nodeAgent(node: FlowNode, build: NodeBuild): BaseAgent | undefined {
  const pick = (names: readonly string[] | undefined, approval?: boolean, prompt?: string) =>
    (names ?? []).map((tool) => {
      const wrap = (found: BaseTool) => {
        const asked = approval ? new ApprovalRequiredTool(found, prompt) : found;
        return build.policyOf ? new PolicyTool(asked, build.policyOf) : asked;
      };
      const found = build.tools.get(tool)!;
      return isToolset(found) ? new MappedToolset(found, wrap) : wrap(found);
    });
  switch (node.type) {
    case 'tool':
      return new ToolNodeAgent({
        name: node.id,
        flowName: build.name,
        tools: pick(node.tools, node.requireApproval, node.approvalPrompt),
      });
    case 'agent':
      return new LlmAgent({
        ...modelNode(node, build, node.instruction),
        tools: pick(node.tools, node.requireApproval, node.approvalPrompt),
      });
    case 'llm': {
      const fields = node.output ?? [];
      // The llm node offers its own tools and those of the tool nodes it leads to.
      const toolNodes = (build.edges.get(node.id) ?? [])
        .map((edge) => build.nodes.get(edge.to))
        .flatMap((next) => (next?.type === 'tool' ? next.tools : []));
      return new ModelNodeAgent({
        ...modelNode(node, build, node.instruction ?? ''),
        tools: pick([...new Set([...(node.tools ?? []), ...toolNodes])]),
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
  node: FlowNode & { model?: string; history?: HistoryMode },
  build: NodeBuild,
  instruction: string,
) {
  return {
    name: node.id,
    model: (node.model && build.models[node.model]) || build.defaultModel,
    instruction: (ctx: InvocationContext) =>
      renderTemplate(
        instruction,
        flowScope(
          ctx,
          build.name,
          nodeInput(ctx.activeView.peek(), build.name, node.id, ctx.branch),
        ),
      ),
    history: historySelector(node.history ?? 'all', build.name),
    // A node hands on to the flow's next node, never to another agent.
    disallowTransferToParent: true,
    disallowTransferToPeers: true,
  };
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
