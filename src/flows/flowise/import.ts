// Flowise's Sequential Agents flows (a chatflow export or a marketplace template, as Flowise saves
// it) made into Trellis flows. Flowise draws a LangGraph state graph: nodes of type `customNode`
// whose `data.name` says what they are (`seqStart`, `seqAgent`, …), their form in `data.inputs`
// (tables as JSON text), and edges between handles. One converter per node type (NODE_CONVERTERS);
// what has no counterpart here — JavaScript code fields, chat models
// other than the user's providers, `$flow.state.messages` expressions — goes in the report, each
// item naming its node, never dropped without a word.

import { flowAgentName, type Flow, type FlowEdge, type FlowNode } from '../flow.ts';
import { InvalidRequestError } from '../../core/errors.ts';
import { jsonTextProblem, jsonTreeProblem, type JsonLimits } from '../../core/json-limits.ts';
import { NODE_CONVERTERS } from './converters.ts';
import { importAgentflowV2, isAgentflowV2 } from './agentflow-v2.ts';
import type { KnowledgeMapping } from './knowledge.ts';
import {
  Importer,
  dropStackedPositions,
  isRecord,
  text,
  withPosition,
  type FlowiseEdge,
  type FlowiseNode,
  type FlowiseReportItem,
} from './importer.ts';

export type { FlowiseReportItem } from './importer.ts';

export interface FlowiseImportOptions {
  /**
   * Flowise's stores (by name, e.g. `AI-Paper`, or by the retriever tool's name) → the ids of
   * the knowledge bases they are to search; the others wait for the user to pick one.
   */
  knowledge?: KnowledgeMapping;
}

export interface FlowiseImport {
  flow: Flow;
  report: FlowiseReportItem[];
}

/** The node types a sequential flow is made of, and the ones read only as inputs of others. */
const SEQUENTIAL = new Set([
  'seqStart',
  'seqAgent',
  'seqLLMNode',
  'seqToolNode',
  'seqCondition',
  'seqConditionAgent',
  'seqLoop',
  'seqEnd',
  'seqState',
]);

/**
 * The limits of a Flowise export: bigger than a Trellis flow file (Flowise saves every node's
 * whole definition with its form), checked before anything is made of it.
 */
const FLOWISE_FILE_LIMITS: JsonLimits = {
  maxChars: 16 * 1024 * 1024,
  maxDepth: 100,
  maxString: 1024 * 1024,
  maxKey: 1024,
};

/**
 * A Flowise export as the user picked it (its text, and the file's name, which names the flow):
 * checked against limits, parsed, and imported; a file that is none gets our own message.
 */
export function readFlowiseFile(
  text: string,
  fileName: string,
  options: FlowiseImportOptions = {},
): FlowiseImport {
  const tooBig = jsonTextProblem(text, FLOWISE_FILE_LIMITS, 'This Flowise file');
  if (tooBig) throw new InvalidRequestError(tooBig);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError(`This Flowise file is not JSON (${(error as Error).message})`);
  }
  const problem = jsonTreeProblem(json, FLOWISE_FILE_LIMITS);
  if (problem)
    throw new InvalidRequestError(`This is not a Flowise flow Trellis can import: ${problem}`);
  const name =
    fileName
      .replace(/\.json$/i, '')
      .trim()
      .slice(0, 100) || 'Imported from Flowise';
  return importFlowiseFlow(json, name, options);
}

/**
 * A Flowise Sequential Agents flow (its exported JSON, parsed) as a Trellis flow, with a report of
 * what changed on the way. The flow may still need work (a tool that has no counterpart, a
 * provider to choose): `validateFlow` says what.
 */
export function importFlowiseFlow(
  json: unknown,
  name = 'Imported from Flowise',
  options: FlowiseImportOptions = {},
): FlowiseImport {
  const knowledge = isRecord(options.knowledge) ? options.knowledge : {};
  const file = json as { nodes?: unknown; edges?: unknown; description?: unknown };
  if (!file || typeof file !== 'object' || !Array.isArray(file.nodes) || !Array.isArray(file.edges))
    throw new InvalidRequestError('This is not a Flowise flow: it needs "nodes" and "edges" lists');
  const nodes = (file.nodes as FlowiseNode[]).filter(
    (node) =>
      isRecord(node) &&
      typeof node.id === 'string' &&
      isRecord(node.data) &&
      typeof node.data.name === 'string',
  );
  // An edge is read only with its ends and handles as text: anything else is no edge.
  const fileEdges = (file.edges as unknown[]).filter(
    (edge): edge is FlowiseEdge =>
      isRecord(edge) &&
      typeof edge.source === 'string' &&
      typeof edge.target === 'string' &&
      typeof edge.targetHandle === 'string' &&
      (edge.sourceHandle === undefined || typeof edge.sourceHandle === 'string'),
  );
  const description = typeof file.description === 'string' ? file.description.slice(0, 1000) : '';
  if (isAgentflowV2(nodes)) {
    const v2Edges = (file.edges as unknown[]).filter(
      (edge): edge is FlowiseEdge =>
        isRecord(edge) &&
        typeof edge.source === 'string' &&
        typeof edge.target === 'string' &&
        (edge.sourceHandle === undefined || typeof edge.sourceHandle === 'string'),
    );
    return importAgentflowV2(nodes, v2Edges, name, description, knowledge);
  }
  if (!nodes.some((node) => node.data.name === 'seqStart'))
    throw new InvalidRequestError(
      'This Flowise flow has neither a Sequential Agents Start node (seqStart) nor an Agentflow V2 Start node (startAgentflow): only those flows import',
    );
  const im = new Importer(nodes, [name, flowAgentName(name)], knowledge);
  // Chat models, tools, memory and state feed the nodes they are connected to, which report them.
  const flowEdges = fileEdges.filter((edge) => isFlowEdge(edge));
  const feeds = new Set(fileEdges.filter((edge) => !isFlowEdge(edge)).map((edge) => edge.source));
  const flowNodes: FlowNode[] = [];
  // The State first (its keys make `$flow.state.x` templates), then the file's order.
  const inOrder = [
    ...nodes.filter((node) => node.data.name === 'seqState'),
    ...nodes.filter((node) => node.data.name !== 'seqState'),
  ];
  for (const node of inOrder) {
    const convert = NODE_CONVERTERS[node.data.name];
    if (convert) {
      const inputs = isRecord(node.data.inputs) ? node.data.inputs : {};
      if (node.data.inputs !== undefined && !isRecord(node.data.inputs))
        im.note(
          node.id,
          'dropped',
          'its form could not be read (its inputs are not a form): its fields are left empty',
        );
      const converted = convert(node, inputs, im);
      if (converted) flowNodes.push(withPosition(converted, node.position));
    } else if (node.data.name === 'stickyNote') {
      im.note(node.id, 'dropped', `sticky note: "${text(node.data.inputs?.note).slice(0, 200)}"`);
    } else if (node.data.name === 'agentMemory' || node.data.name.endsWith('AgentMemory')) {
      im.note(
        node.id,
        'changed',
        'agent memory: Trellis keeps every session in the browser already',
      );
    } else if (!SEQUENTIAL.has(node.data.name) && !feeds.has(node.id)) {
      im.note(
        node.id,
        'dropped',
        `${node.data.label ?? node.data.name} (${node.data.name}) has no Trellis counterpart`,
      );
    }
  }
  dropStackedPositions(flowNodes);
  const kept = new Map(flowNodes.map((node) => [node.id, node]));
  const byFlowiseId = new Map(nodes.map((node) => [node.id, node]));
  const edges: FlowEdge[] = [];
  for (const edge of flowEdges) {
    const from = kept.get(im.idOf(edge.source));
    const to = kept.get(im.idOf(edge.target));
    if (!from || !to) {
      im.note(
        edge.source,
        'dropped',
        `its connection to ${im.idOf(edge.target)} leads through a node that did not come over`,
      );
      continue;
    }
    const when = branchOf(from, byFlowiseId.get(edge.source)!, edge.sourceHandle ?? '');
    edges.push({ from: from.id, to: to.id, ...(when ? { when } : {}) });
  }
  const flow: Flow = {
    name,
    ...(description ? { description } : {}),
    ...(im.state.length > 0 ? { state: im.state } : {}),
    nodes: flowNodes,
    edges,
  };
  return { flow, report: im.report };
}

/**
 * Whether an edge is a step of the flow (into a node's *Sequential Node* input, or a Tool Node's
 * *LLM Node*), not a model, tool, memory or state feeding a node.
 */
function isFlowEdge(edge: FlowiseEdge): boolean {
  return /-input-(sequentialNode|llmNode)-/.test(edge.targetHandle ?? '');
}

/**
 * The branch an edge out of a condition takes: Flowise names it by the label of the output its
 * handle is (a rule's output, or End), as its graph does; a file without its outputs by the
 * handle's own name.
 */
function branchOf(from: FlowNode, node: FlowiseNode, handle: string): string | undefined {
  if (from.type !== 'condition' && from.type !== 'conditionAgent') return undefined;
  const anchors = (node.data as { outputAnchors?: unknown }).outputAnchors;
  const options = Array.isArray(anchors) && isRecord(anchors[0]) ? anchors[0].options : undefined;
  const option = Array.isArray(options)
    ? options.find((option: unknown) => isRecord(option) && option.id === handle)
    : undefined;
  const name = (
    typeof option?.label === 'string' ? option.label : /-output-(.+)-Condition$/.exec(handle)?.[1]
  )?.toLowerCase();
  if (!name) return undefined;
  const outputs =
    from.type === 'condition' ? from.rules.map((rule) => rule.output) : from.scenarios;
  const match = outputs.find((output) => output.toLowerCase() === name);
  if (match) return match;
  return name === 'end' ? (from.type === 'condition' ? 'else' : 'End') : name;
}
