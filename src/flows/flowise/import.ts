// Flowise's Sequential Agents flows (a chatflow export or a marketplace template, as Flowise saves
// it) made into Trellis flows. Flowise draws a LangGraph state graph: nodes of type `customNode`
// whose `data.name` says what they are (`seqStart`, `seqAgent`, …), their form in `data.inputs`
// (tables as JSON text), and edges between handles. One converter per node type (NODE_CONVERTERS);
// what has no counterpart here — JavaScript code fields, vector stores and retrievers, chat models
// other than the user's providers, `$flow.state.messages` expressions — goes in the report, each
// item naming its node, never dropped without a word.

import type {
  ConditionOperation,
  ConditionRule,
  Flow,
  FlowEdge,
  FlowNode,
  FlowStateKey,
  HistoryMode,
  OutputField,
  OutputFieldType,
} from '../flow.ts';
import { DEFAULT_MAX_LOOPS } from '../flow.ts';
import { BUILTIN_TOOL_NAMES } from '../../tools/builtin-tools.ts';
import { InvalidRequestError } from '../../core/errors.ts';

/** Something of the Flowise file that did not come over as it was. */
export interface FlowiseReportItem {
  /** The Flowise node it concerns (its id there and here). */
  nodeId?: string;
  /** `dropped`: not carried over; `changed`: carried over in another form. */
  kind: 'dropped' | 'changed';
  message: string;
}

export interface FlowiseImport {
  flow: Flow;
  report: FlowiseReportItem[];
}

interface FlowiseNode {
  id: string;
  position?: { x: number; y: number };
  data: { name: string; label?: string; inputs?: Record<string, unknown> };
}

interface FlowiseEdge {
  source: string;
  target: string;
  sourceHandle?: string;
  targetHandle?: string;
}

const OPERATIONS: Record<string, ConditionOperation> = {
  Contains: 'contains',
  'Not Contains': 'notContains',
  'Start With': 'startsWith',
  'End With': 'endsWith',
  Is: 'is',
  'Is Not': 'isNot',
  'Is Empty': 'isEmpty',
  'Is Not Empty': 'isNotEmpty',
  'Greater Than': 'greaterThan',
  'Less Than': 'lessThan',
  'Equal To': 'equalTo',
  'Not Equal To': 'notEqualTo',
  'Greater Than or Equal To': 'greaterOrEqual',
  'Less Than or Equal To': 'lessOrEqual',
};

const OUTPUT_TYPES: Record<string, OutputFieldType> = {
  String: 'string',
  'String Array': 'stringArray',
  Number: 'number',
  Boolean: 'boolean',
  Enum: 'enum',
  'JSON Array': 'json',
};

/** Flowise's own tools that Trellis has under another name. */
const TOOL_NAMES: Record<string, string> = {
  calculator: 'calculator',
  currentDateTime: 'current_time',
};

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

class Importer {
  readonly report: FlowiseReportItem[] = [];
  readonly state: FlowStateKey[] = [];
  private readonly byId: Map<string, FlowiseNode>;

  constructor(readonly nodes: FlowiseNode[]) {
    this.byId = new Map(nodes.map((node) => [node.id, node]));
  }

  note(nodeId: string | undefined, kind: FlowiseReportItem['kind'], message: string): void {
    this.report.push({ ...(nodeId ? { nodeId } : {}), kind, message });
  }

  /** A Flowise expression (`$flow.state.x`, `$flow.output.y`) as a Trellis template. */
  expression(nodeId: string, value: string, where: string): string {
    const text = value.trim();
    if (text === '{{question}}' || text === '$flow.input') return '{{question}}';
    const state = /^\$flow\.state\.([A-Za-z_][\w-]*)$/.exec(text);
    if (state) return `{{state.${state[1]}}}`;
    if (text === '$flow.output.content' || text === '$flow.output') return '{{output}}';
    const output = /^\$flow\.output\.([A-Za-z_][\w-]*)$/.exec(text);
    if (output) return `{{output.${output[1]}}}`;
    if (text.startsWith('$flow.') || text.startsWith('$vars.')) {
      this.note(nodeId, 'dropped', `${where}: "${text}" has no Trellis template; kept as text`);
    }
    return value;
  }

  /** A prompt with its `{variables}` filled from `promptValues`, as Flowise fills them. */
  prompt(nodeId: string, inputs: Record<string, unknown>): string {
    const system = text(inputs.systemMessagePrompt);
    const human = text(inputs.humanMessagePrompt);
    if (human) this.note(nodeId, 'changed', 'its human prompt is added to the instruction');
    let prompt = [system, human].filter(Boolean).join('\n\n');
    const values = table(inputs.promptValues, true) as unknown as Record<string, unknown>;
    for (const [name, value] of Object.entries(values ?? {})) {
      const filled = this.expression(nodeId, String(value), `prompt value ${name}`);
      prompt = prompt.split(`{${name}}`).join(filled);
    }
    return prompt;
  }

  /** `updateStateMemoryUI` rows as updateState; JavaScript code is reported. */
  updateState(nodeId: string, inputs: Record<string, unknown>): Record<string, string> | undefined {
    const tab = Object.entries(inputs).find(([key]) =>
      key.startsWith('selectedUpdateStateMemoryTab'),
    );
    if (tab?.[1] === 'updateStateMemoryCode' && text(inputs.updateStateMemoryCode)) {
      this.note(nodeId, 'dropped', 'its "Update State" JavaScript code is not run in Trellis');
      return undefined;
    }
    const rows = table(inputs.updateStateMemoryUI) as { key?: string; value?: string }[];
    const update: Record<string, string> = {};
    for (const row of rows)
      if (row.key)
        update[row.key] = this.expression(nodeId, String(row.value ?? ''), `state ${row.key}`);
    return Object.keys(update).length > 0 ? update : undefined;
  }

  /** The tools connected to a node, as Trellis's tools where there is one. */
  tools(nodeId: string, inputs: Record<string, unknown>): string[] {
    const tools: string[] = [];
    for (const ref of references(inputs.tools)) {
      const tool = this.byId.get(ref);
      const name = tool && TOOL_NAMES[tool.data.name];
      if (name && BUILTIN_TOOL_NAMES.includes(name)) tools.push(name);
      else
        this.note(
          nodeId,
          'dropped',
          `tool "${tool?.data.label ?? ref}" (${tool?.data.name ?? 'missing'}) has no Trellis counterpart`,
        );
    }
    return tools;
  }

  /** The node of a Flowise name (an Agent's or LLM Node's name), for a Loop's target. */
  named(name: string): string | undefined {
    const wanted = name.trim().toLowerCase();
    return this.nodes.find((node) => {
      const inputs = node.data.inputs ?? {};
      return [inputs.agentName, inputs.llmNodeName, inputs.toolNodeName, inputs.conditionName]
        .filter((value): value is string => typeof value === 'string')
        .some((value) => value.trim().toLowerCase() === wanted);
    })?.id;
  }

  rules(nodeId: string, inputs: Record<string, unknown>): ConditionRule[] {
    const tab = Object.entries(inputs).find(([key]) =>
      key.startsWith('selectedConditionFunctionTab'),
    );
    if (tab?.[1] === 'conditionFunction' && text(inputs.conditionFunction))
      this.note(
        nodeId,
        'dropped',
        'its condition JavaScript code is not run in Trellis: add rules',
      );
    const rows = table(inputs.conditionUI) as {
      variable?: string;
      operation?: string;
      value?: unknown;
      output?: string;
    }[];
    return rows.flatMap((row) => {
      const operation = OPERATIONS[row.operation ?? ''];
      if (!operation || !row.output) {
        this.note(nodeId, 'dropped', `a rule with operation "${row.operation}" is not understood`);
        return [];
      }
      return [
        {
          variable: this.expression(nodeId, String(row.variable ?? ''), 'rule variable'),
          operation,
          ...(row.value !== undefined && row.value !== '' ? { value: row.value as string } : {}),
          output: row.output,
        },
      ];
    });
  }
}

type Converter = (
  node: FlowiseNode,
  inputs: Record<string, unknown>,
  im: Importer,
) => FlowNode | undefined;

/** One entry per Flowise Sequential Agents node type. */
const NODE_CONVERTERS: Record<string, Converter> = {
  seqStart: (node, inputs, im) => {
    if (inputs.model)
      im.note(node.id, 'changed', 'its chat model becomes the provider you choose for the flow');
    if (text(inputs.inputModeration))
      im.note(node.id, 'dropped', 'its input moderation chain is not carried over');
    return { id: node.id, type: 'start', label: label(node) };
  },
  seqState: (node, inputs, im) => {
    if (inputs.stateMemory === 'stateMemoryCode' || text(inputs.stateMemoryCode))
      im.note(node.id, 'dropped', 'its state JavaScript code is not run in Trellis');
    for (const row of table(inputs.stateMemoryUI) as {
      key?: string;
      type?: string;
      defaultValue?: unknown;
    }[]) {
      if (!row.key) continue;
      const operation = row.type === 'Append' ? 'append' : 'replace';
      const raw = row.defaultValue;
      const fallback = operation === 'append' ? [] : null;
      im.state.push({
        key: row.key,
        operation,
        default: raw === '' || raw === undefined ? fallback : parseMaybeJson(raw),
      });
    }
    return undefined; // Flowise's State is not a step: its keys are the flow's state
  },
  seqAgent: (node, inputs, im) => ({
    ...modelNote(node, inputs, im),
    id: node.id,
    type: 'agent',
    label: text(inputs.agentName) || label(node),
    instruction: im.prompt(node.id, inputs),
    ...nonEmpty('tools', im.tools(node.id, inputs)),
    ...(truthy(inputs.interrupt) ? { requireApproval: true } : {}),
    ...history(inputs),
    ...optional('updateState', im.updateState(node.id, inputs)),
  }),
  seqLLMNode: (node, inputs, im) => {
    const output = (table(inputs.llmStructuredOutput) as Record<string, unknown>[]).flatMap(
      (row): OutputField[] => {
        const type = OUTPUT_TYPES[String(row.type)];
        if (!row.key || !type) return [];
        return [
          {
            key: String(row.key),
            type,
            ...(type === 'enum'
              ? {
                  enum: String(row.enumValues ?? '')
                    .split(',')
                    .map((v) => v.trim())
                    .filter(Boolean),
                }
              : {}),
            ...(row.description ? { description: String(row.description) } : {}),
          },
        ];
      },
    );
    return {
      id: node.id,
      type: 'llm',
      label: text(inputs.llmNodeName) || label(node),
      instruction: im.prompt(node.id, inputs),
      ...nonEmpty('output', output),
      ...history(inputs),
      ...optional('updateState', im.updateState(node.id, inputs)),
    };
  },
  seqToolNode: (node, inputs, im) => ({
    id: node.id,
    type: 'tool',
    label: text(inputs.toolNodeName) || label(node),
    tools: im.tools(node.id, inputs),
    ...(truthy(inputs.interrupt) ? { requireApproval: true } : {}),
    ...optional('updateState', im.updateState(node.id, inputs)),
  }),
  seqCondition: (node, inputs, im) => ({
    id: node.id,
    type: 'condition',
    label: text(inputs.conditionName) || label(node),
    rules: im.rules(node.id, inputs),
  }),
  seqConditionAgent: (node, inputs, im) => {
    // Flowise asks the model for structured output, then applies rules to it; Trellis asks the
    // model to name a scenario: the rules' outputs become the scenarios, with "End" for the rest.
    const rules = im.rules(node.id, inputs);
    const scenarios = [...new Set([...rules.map((rule) => rule.output), 'End'])];
    const said = rules.map((rule) => `${rule.output} when ${describeRule(rule)}`).join('; ');
    im.note(
      node.id,
      'changed',
      'its structured output and rules become scenarios the model chooses from',
    );
    return {
      id: node.id,
      type: 'conditionAgent',
      label: text(inputs.conditionAgentName) || label(node),
      instruction: `${im.prompt(node.id, inputs)}\n\nAnswer with one scenario: ${said}; otherwise End.`,
      scenarios,
      ...history(inputs),
    };
  },
  seqLoop: (node, inputs, im) => {
    const target = im.named(text(inputs.loopToName));
    if (!target)
      im.note(
        node.id,
        'dropped',
        `it loops to "${text(inputs.loopToName)}", which is not in the flow`,
      );
    return {
      id: node.id,
      type: 'loop',
      label: label(node),
      to: target ?? '',
      maxLoops: DEFAULT_MAX_LOOPS,
    };
  },
  seqEnd: (node) => ({ id: node.id, type: 'end', label: label(node) }),
};

/**
 * A Flowise Sequential Agents flow (its exported JSON, parsed) as a Trellis flow, with a report of
 * what changed on the way. The flow may still need work (a tool that has no counterpart, a
 * provider to choose): `validateFlow` says what.
 */
export function importFlowiseFlow(json: unknown, name = 'Imported from Flowise'): FlowiseImport {
  const file = json as { nodes?: unknown; edges?: unknown; description?: unknown };
  if (!file || typeof file !== 'object' || !Array.isArray(file.nodes) || !Array.isArray(file.edges))
    throw new InvalidRequestError('This is not a Flowise flow: it needs "nodes" and "edges" lists');
  const nodes = (file.nodes as FlowiseNode[]).filter(
    (node) => node && typeof node.id === 'string' && typeof node.data?.name === 'string',
  );
  if (!nodes.some((node) => node.data.name === 'seqStart'))
    throw new InvalidRequestError(
      'This Flowise flow has no Sequential Agents Start node (seqStart): only Sequential Agents flows import',
    );
  const im = new Importer(nodes);
  // Chat models, tools, memory and state feed the nodes they are connected to, which report them.
  const feeds = new Set(
    (file.edges as FlowiseEdge[])
      .filter((edge) => edge?.targetHandle && !edge.targetHandle.includes('-input-sequentialNode-'))
      .map((edge) => edge.source),
  );
  const flowNodes: FlowNode[] = [];
  for (const node of nodes) {
    const convert = NODE_CONVERTERS[node.data.name];
    if (convert) {
      const converted = convert(node, node.data.inputs ?? {}, im);
      if (converted) flowNodes.push(converted);
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
  const kept = new Set(flowNodes.map((node) => node.id));
  const edges: FlowEdge[] = [];
  for (const edge of file.edges as FlowiseEdge[]) {
    if (!edge?.targetHandle?.includes('-input-sequentialNode-')) continue; // models, tools, state
    if (!kept.has(edge.source) || !kept.has(edge.target)) {
      im.note(
        edge.source,
        'dropped',
        `its connection to ${edge.target} leads through a node that did not come over`,
      );
      continue;
    }
    const from = flowNodes.find((node) => node.id === edge.source)!;
    const when = branchOf(from, edge.sourceHandle ?? '');
    edges.push({ from: edge.source, to: edge.target, ...(when ? { when } : {}) });
  }
  const description = typeof file.description === 'string' ? file.description.slice(0, 1000) : '';
  const flow: Flow = {
    name,
    ...(description ? { description } : {}),
    ...(im.state.length > 0 ? { state: im.state } : {}),
    nodes: flowNodes,
    edges,
  };
  return { flow, report: im.report };
}

/** The branch an edge out of a condition takes: its handle names a rule's output, or `end`. */
function branchOf(from: FlowNode, handle: string): string | undefined {
  if (from.type !== 'condition' && from.type !== 'conditionAgent') return undefined;
  const name = /-output-(.+)-Condition$/.exec(handle)?.[1]?.toLowerCase();
  if (!name) return undefined;
  const outputs =
    from.type === 'condition' ? from.rules.map((rule) => rule.output) : from.scenarios;
  const match = outputs.find((output) => output.toLowerCase() === name);
  if (match) return match;
  return name === 'end' ? (from.type === 'condition' ? 'else' : 'End') : name;
}

/** A node's own chat model: reported (the flow's provider, or the node's, is chosen here). */
function modelNote(node: FlowiseNode, inputs: Record<string, unknown>, im: Importer): object {
  if (inputs.model)
    im.note(node.id, 'changed', 'its own chat model becomes a provider you choose for the node');
  return {};
}

function describeRule(rule: ConditionRule): string {
  const variable = rule.variable.replace(/^\{\{output\.(.+)\}\}$/, '$1');
  return `${variable} ${rule.operation} ${rule.value ?? ''}`.trim();
}

/** A Flowise table input: JSON text of rows (or the rows), [] when empty or broken. */
function table(value: unknown, object = false): unknown[] {
  let parsed = value;
  if (typeof value === 'string') {
    if (!value.trim()) return object ? (undefined as never) : [];
    try {
      parsed = JSON.parse(value);
    } catch {
      return object ? (undefined as never) : [];
    }
  }
  if (object) return parsed as never;
  return Array.isArray(parsed) ? parsed : [];
}

/** The node ids an input refers to (`{{seqAgent_0.data.instance}}`, or a list of them). */
function references(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value ? [value] : [];
  return items.flatMap((item) => {
    const id = /^\{\{(.+?)\.data\.instance\}\}$/.exec(String(item))?.[1];
    return id ? [id] : [];
  });
}

function history(inputs: Record<string, unknown>): { history?: HistoryMode } {
  const map: Record<string, HistoryMode> = {
    all_messages: 'all',
    last_message: 'lastMessage',
    user_question: 'userQuestion',
    empty: 'none',
  };
  const mode = map[text(inputs.conversationHistorySelection)];
  return mode ? { history: mode } : {};
}

function label(node: FlowiseNode): string {
  return (node.data.label ?? node.data.name).slice(0, 100);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function truthy(value: unknown): boolean {
  return value === true || value === 'true';
}

function parseMaybeJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function nonEmpty<K extends string, T>(key: K, list: T[]): Partial<Record<K, T[]>> {
  return list.length > 0 ? ({ [key]: list } as Record<K, T[]>) : {};
}

function optional<K extends string, T>(key: K, value: T | undefined): Partial<Record<K, T>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, T>);
}
