// Flowise 3's Agentflow V2 flows (its marketplace's `agentflowsv2` templates, and what its
// Agentflows export) made into Trellis flows. A V2 file holds nodes of type `agentFlow` (and
// `iteration`, `stickyNote`) whose `data.name` says what they are (`startAgentflow`,
// `llmAgentflow`, …), their form in `data.inputs` (prompts as the editor's HTML, v2-text.ts), and
// edges whose source handle says which output they leave by (`<node>-output-<n>`).
//
// Every V2 node comes over: Start (a chat input or a form, and the flow's state), LLM (messages,
// structured output, memory, update state), Agent (with its built-in tools), Condition, Condition
// Agent, Loop, Direct Reply, Human Input, Iteration (with the nodes inside it), Custom Function,
// HTTP, Tool, Execute Flow, Retriever and sticky notes as the canvas's notes (v2-nodes.ts); an
// Agent's and a Retriever's knowledge become references to knowledge bases the user picks
// (knowledge.ts). A node of another kind is named in the report, as is every edge through it.

import type { Flow, FlowEdge, FlowNode, FlowNote } from '../flow.ts';
import { DEFAULT_MAX_LOOPS, HUMAN_ANSWERS, flowAgentName } from '../flow.ts';
import {
  Importer,
  dropStackedPositions,
  isRecord,
  text,
  withPosition,
  type FlowiseEdge,
  type FlowiseNode,
} from './importer.ts';
import { htmlText } from './v2-text.ts';
import { rows, type Inputs } from './v2-fields.ts';
import { V2Nodes } from './v2-nodes.ts';
import type { KnowledgeMapping } from './knowledge.ts';

/** Whether a Flowise file is an Agentflow V2 flow: its nodes are V2's. */
export function isAgentflowV2(nodes: readonly FlowiseNode[]): boolean {
  return nodes.some((node) => node.data.name === 'startAgentflow');
}

/** A V2 flow as a Trellis flow, with the report of what changed on the way. */
export function importAgentflowV2(
  nodes: FlowiseNode[],
  edges: readonly FlowiseEdge[],
  name: string,
  description: string,
  knowledge: KnowledgeMapping = {},
): { flow: Flow; report: Importer['report'] } {
  const im = new Importer(nodes, [name, flowAgentName(name)], knowledge);
  const v2 = new V2(im, nodes);
  const flowNodes: FlowNode[] = [];
  const notes: FlowNote[] = [];
  for (const node of nodes) {
    if (node.data.name === 'stickyNoteAgentflow') {
      notes.push(v2.stickyNote(node));
      continue;
    }
    const made = v2.convert(node);
    if (made) flowNodes.push(withPosition(made, node.position));
  }
  // A node inside an Iteration that did not come over leaves it; one whose Iteration did not
  // come over is drawn where it was, outside.
  const ids = new Set(flowNodes.map((node) => node.id));
  for (const node of flowNodes) if (node.parent && !ids.has(node.parent)) delete node.parent;
  dropStackedPositions(flowNodes);
  const kept = new Map(flowNodes.map((node) => [node.id, node]));
  const flowEdges: FlowEdge[] = [];
  const seen = new Set<string>();
  for (const edge of edges) {
    const from = kept.get(im.idOf(edge.source));
    const to = kept.get(im.idOf(edge.target));
    if (!from || !to) {
      if (kept.has(im.idOf(edge.source)) || kept.has(im.idOf(edge.target)))
        im.note(
          edge.source,
          'dropped',
          `its connection to ${im.idOf(edge.target)} leads through a node that did not come over`,
        );
      continue;
    }
    const when = v2.branchOf(from, edge.sourceHandle ?? '');
    const key = JSON.stringify([from.id, to.id, when]);
    if (seen.has(key)) continue;
    seen.add(key);
    flowEdges.push({ from: from.id, to: to.id, ...(when ? { when } : {}) });
  }
  const flow: Flow = {
    name,
    ...(description ? { description } : {}),
    ...(im.state.length > 0 ? { state: im.state } : {}),
    nodes: flowNodes,
    edges: flowEdges,
    ...(notes.length > 0 ? { notes } : {}),
  };
  return { flow, report: im.report };
}

/** The V2 nodes that become nodes here. */
export const BROUGHT_OVER: ReadonlySet<string> = new Set([
  'startAgentflow',
  'llmAgentflow',
  'agentAgentflow',
  'conditionAgentflow',
  'conditionAgentAgentflow',
  'loopAgentflow',
  'directReplyAgentflow',
  'humanInputAgentflow',
  'iterationAgentflow',
  'customFunctionAgentflow',
  'httpAgentflow',
  'toolAgentflow',
  'executeFlowAgentflow',
  'retrieverAgentflow',
]);

/** The node converters; the fields they share are read by V2Fields. */
class V2 extends V2Nodes {
  private readonly flowiseIds: Set<string>;

  constructor(im: Importer, nodes: readonly FlowiseNode[]) {
    super(
      im,
      new Set(nodes.filter((node) => BROUGHT_OVER.has(node.data.name)).map((node) => node.id)),
    );
    this.flowiseIds = new Set(nodes.map((node) => node.id));
  }

  convert(node: FlowiseNode): FlowNode | undefined {
    const inputs: Inputs = isRecord(node.data.inputs) ? node.data.inputs : {};
    const label = text(node.data.label) || undefined;
    const id = this.im.idOf(node.id);
    const base = { id, ...(label ? { label } : {}) };
    const parent = (node as { parentNode?: unknown }).parentNode;
    if (typeof parent === 'string' && this.flowiseIds.has(parent))
      Object.assign(base, { parent: this.im.idOf(parent) });
    switch (node.data.name) {
      case 'startAgentflow': {
        this.start(node, inputs);
        const form = this.form(inputs);
        return { ...base, type: 'start', ...(form ? { form } : {}) };
      }
      case 'iterationAgentflow':
        return this.iteration(node, inputs, base);
      case 'customFunctionAgentflow':
        return this.code(node, inputs, base);
      case 'httpAgentflow':
        return this.http(node, inputs, base);
      case 'toolAgentflow':
        return this.toolCall(node, inputs, base);
      case 'executeFlowAgentflow':
        return this.subflow(node, inputs, base);
      case 'llmAgentflow': {
        const output = this.structuredOutput(node, inputs['llmStructuredOutput']);
        return {
          ...base,
          type: 'llm',
          instruction: this.messages(node, inputs['llmMessages'], inputs['llmUserMessage']),
          ...this.memory(
            node,
            inputs['llmEnableMemory'],
            inputs['llmMemoryType'],
            inputs['llmMemoryWindowSize'],
          ),
          ...(output.length > 0 ? { output } : {}),
          ...this.updateState(node, inputs['llmUpdateState']),
          ...this.model(node, inputs['llmModel'], inputs['llmModelConfig']),
        };
      }
      case 'retrieverAgentflow':
        return this.retriever(node, inputs, base);
      case 'agentAgentflow':
        return {
          ...base,
          type: 'agent',
          instruction: this.messages(node, inputs['agentMessages'], inputs['agentUserMessage']),
          ...this.tools(node, inputs['agentTools']),
          ...this.knowledge(node, inputs),
          ...this.memory(
            node,
            inputs['agentEnableMemory'],
            inputs['agentMemoryType'],
            inputs['agentMemoryWindowSize'],
          ),
          ...this.updateState(node, inputs['agentUpdateState']),
          ...this.model(node, inputs['agentModel'], inputs['agentModelConfig']),
        };
      case 'conditionAgentflow':
        return { ...base, type: 'condition', rules: this.rules(node, inputs['conditions']) };
      case 'conditionAgentAgentflow': {
        const scenarios = rows(inputs['conditionAgentScenarios'])
          .map((row) => htmlText(text(row['scenario'])).trim())
          .filter(Boolean);
        const instructions = this.text(node, inputs['conditionAgentInstructions'], 'instructions');
        const input = this.text(node, inputs['conditionAgentInput'], 'input');
        return {
          ...base,
          type: 'conditionAgent',
          instruction: [instructions, input && `The input to decide on:\n${input}`]
            .filter(Boolean)
            .join('\n\n'),
          scenarios,
          ...this.updateState(node, inputs['conditionAgentUpdateState']),
          ...this.model(node, inputs['conditionAgentModel'], inputs['conditionAgentModelConfig']),
        };
      }
      case 'loopAgentflow': {
        const target = text(inputs['loopBackToNode']);
        const back = [...this.flowiseIds].find(
          (flowiseId) => target === flowiseId || target.startsWith(`${flowiseId}-`),
        );
        if (!back)
          this.im.note(
            node.id,
            'dropped',
            `it loops back to "${target}", which it names no node of this flow by`,
          );
        const max = Number(inputs['maxLoopCount']);
        return {
          ...base,
          type: 'loop',
          to: back ? this.im.idOf(back) : '',
          maxLoops: Number.isInteger(max) && max > 0 ? max : DEFAULT_MAX_LOOPS,
        };
      }
      case 'humanInputAgentflow':
        if (inputs['humanInputDescriptionType'] === 'dynamic')
          this.im.note(
            node.id,
            'changed',
            'its description is written by a model in Flowise; here its prompt is asked as written',
          );
        return {
          ...base,
          type: 'humanInput',
          description:
            this.text(
              node,
              inputs['humanInputDescriptionType'] === 'dynamic'
                ? inputs['humanInputModelPrompt']
                : inputs['humanInputDescription'],
              'its description',
            ) || 'Proceed?',
        };
      case 'directReplyAgentflow':
        return {
          ...base,
          type: 'reply',
          message: this.text(node, inputs['directReplyMessage'], 'its message'),
        };
      default:
        this.im.note(
          node.id,
          'dropped',
          `${label ?? node.data.name} (${node.data.name}) has no Trellis counterpart`,
        );
        return undefined;
    }
  }

  /** The output an edge leaves a condition by: its rule's output, or else; a scenario. */
  branchOf(from: FlowNode, handle: string): string | undefined {
    const index = Number(/-output-(\d+)$/.exec(handle)?.[1]);
    if (!Number.isInteger(index)) return undefined;
    if (from.type === 'condition') return from.rules[index]?.output ?? 'else';
    if (from.type === 'conditionAgent') return from.scenarios[index];
    if (from.type === 'humanInput') return HUMAN_ANSWERS[index];
    return undefined;
  }

  /** A sticky note as a note of the canvas. */
  stickyNote(node: FlowiseNode): FlowNote {
    return this.note(node, isRecord(node.data.inputs) ? node.data.inputs : {});
  }

  private start(node: FlowiseNode, inputs: Inputs): void {
    const type = text(inputs['startInputType']);
    if (type && type !== 'chatInput' && type !== 'formInput')
      this.im.note(
        node.id,
        'changed',
        `it starts on a ${type === 'webhookTrigger' ? 'webhook' : type === 'scheduleInput' ? 'schedule' : type}, which has no counterpart in a browser app: a chat message starts it`,
      );
    for (const row of rows(inputs['startState'])) {
      const key = text(row['key']).trim();
      if (!key) continue;
      const value = htmlText(text(row['value']));
      this.im.state.push({ key, operation: 'replace', default: value === '' ? null : value });
    }
    if (inputs['startEphemeralMemory'] === true)
      this.im.note(node.id, 'changed', 'its ephemeral memory: each run sees the whole session');
  }
}
