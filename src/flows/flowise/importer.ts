// The Flowise import's reading of a file: its node and edge shapes, the report it keeps, and the
// conversions every node type shares (expressions, prompts, tools, tables, rules).

import type { ConditionOperation, ConditionRule, FlowStateKey } from '../flow.ts';
import { BUILTIN_TOOL_NAMES } from '../../tools/builtin-tools.ts';

/** Something of the Flowise file that did not come over as it was. */
export interface FlowiseReportItem {
  /** The Flowise node it concerns (its id there and here). */
  nodeId?: string;
  /** `dropped`: not carried over; `changed`: carried over in another form. */
  kind: 'dropped' | 'changed';
  message: string;
}

export interface FlowiseNode {
  id: string;
  position?: { x: number; y: number };
  data: { name: string; label?: string; inputs?: Record<string, unknown> };
}

export interface FlowiseEdge {
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

/** Flowise's own tools that Trellis has under another name. */
export const TOOL_NAMES: Record<string, string> = {
  calculator: 'calculator',
  currentDateTime: 'current_time',
};

/** The form field that holds each node type's name (what Flowise names its graph's node by). */
const NAME_FIELDS: Record<string, string> = {
  seqAgent: 'agentName',
  seqLLMNode: 'llmNodeName',
  seqToolNode: 'toolNodeName',
  seqCondition: 'conditionName',
  seqConditionAgent: 'conditionAgentName',
};

/**
 * The nodes that become nodes here, and what they are called when they have no name. Agentflow
 * V2's are named by their labels (agentflow-v2.ts).
 */
const UNNAMED: Record<string, string> = {
  seqStart: 'start',
  seqEnd: 'end',
  seqLoop: 'loop',
  seqAgent: 'agent',
  seqLLMNode: 'llm',
  seqToolNode: 'tool',
  seqCondition: 'condition',
  seqConditionAgent: 'condition_agent',
  startAgentflow: 'start',
  llmAgentflow: 'llm',
  agentAgentflow: 'agent',
  conditionAgentflow: 'condition',
  conditionAgentAgentflow: 'condition_agent',
  loopAgentflow: 'loop',
  directReplyAgentflow: 'reply',
  humanInputAgentflow: 'human_input',
  iterationAgentflow: 'iteration',
  customFunctionAgentflow: 'custom_function',
  httpAgentflow: 'http',
  toolAgentflow: 'tool',
  executeFlowAgentflow: 'execute_flow',
  retrieverAgentflow: 'retriever',
  stickyNoteAgentflow: 'note',
};

export class Importer {
  readonly report: FlowiseReportItem[] = [];
  readonly state: FlowStateKey[] = [];
  readonly byId: ReadonlyMap<string, FlowiseNode>;
  /** Flowise's node id → the node's id here. */
  private readonly ids: Map<string, string>;

  /**
   * `reserved`: ids no node may take (the flow's name, its agent's name); `knowledge`: Flowise
   * store names → the user's knowledge bases (flowise/knowledge.ts).
   */
  constructor(
    readonly nodes: FlowiseNode[],
    reserved: readonly string[] = [],
    readonly knowledge: Readonly<Record<string, string>> = {},
  ) {
    this.byId = new Map(nodes.map((node) => [node.id, node]));
    this.ids = nodeIds(nodes, reserved);
  }

  /** The id here of a Flowise node (its own id when it did not become a node). */
  idOf(flowiseId: string): string {
    return this.ids.get(flowiseId) ?? flowiseId;
  }

  note(nodeId: string | undefined, kind: FlowiseReportItem['kind'], message: string): void {
    this.report.push({ ...(nodeId ? { nodeId: this.idOf(nodeId) } : {}), kind, message });
  }

  /**
   * A Flowise expression as a Trellis template: `$flow.state.x` (and `x[0]`, `x.y`),
   * `$flow.output.y`, `{{question}}`, and a node's last message: `{{node.data.instance}}` in
   * a prompt value, `$node` in a condition.
   */
  expression(nodeId: string, value: string, where: string): string {
    const text = value.trim();
    if (text === '{{question}}' || text === '$flow.input') return '{{question}}';
    if (text === '$flow.output.content' || text === '$flow.output') return '{{output}}';
    const path = /^\$flow\.(state|output)\.([A-Za-z_][\w-]*)((?:\.[A-Za-z_][\w-]*|\[\d+\])*)$/.exec(
      text,
    );
    if (path && (path[1] === 'output' || this.state.some((key) => key.key === path[2]))) {
      const deeper = path[3]!.replace(/\[(\d+)\]/g, '.$1');
      return `{{${path[1]}.${path[2]}${deeper}}}`;
    }
    const instance = /^\{\{([A-Za-z_][\w-]*)\.data\.instance\}\}$/.exec(text)?.[1];
    const message = instance ?? /^\$([A-Za-z_][\w-]*_\d+)$/.exec(text)?.[1];
    if (message && this.ids.has(message)) return `{{nodes.${this.idOf(message)}}}`;
    if (message) {
      this.note(
        nodeId,
        'dropped',
        `${where}: "${text}" names a node that did not come over; kept as text`,
      );
      return value;
    }
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
      // A Retriever Tool is a knowledge reference here (flowise/knowledge.ts).
      if (tool?.data.name === 'retrieverTool') continue;
      const name = tool && TOOL_NAMES[tool.data.name];
      if (name && BUILTIN_TOOL_NAMES.includes(name)) tools.push(name);
      else
        this.note(
          nodeId,
          'dropped',
          `tool "${tool?.data.label ?? ref}" (${tool?.data.name ?? 'missing'}) has no Trellis counterpart: give the node one of yours (a tool server's, in Settings → Tool servers)`,
        );
    }
    return tools;
  }

  /**
   * The node a Loop's *Loop To* names: Flowise names its graph's nodes by their names in lower
   * case with `_` for spaces, and so matches the name.
   */
  named(name: string): string | undefined {
    const wanted = graphName(name);
    const found = this.nodes.find((node) => {
      const field = NAME_FIELDS[node.data.name];
      const value = field ? node.data.inputs?.[field] : undefined;
      return typeof value === 'string' && graphName(value) === wanted;
    });
    return found && this.idOf(found.id);
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

/** A Flowise table input: JSON text of rows (or the rows), [] when empty or broken. */
export function table(value: unknown, object = false): unknown[] {
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

/** A V2 table input: its rows (objects), from the rows or their JSON text; [] when broken. */
export function rows(value: unknown): Record<string, unknown>[] {
  let parsed = value;
  if (typeof value === 'string' && value.trim().startsWith('[')) {
    try {
      parsed = JSON.parse(value);
    } catch {
      return [];
    }
  }
  return Array.isArray(parsed) ? parsed.filter(isRecord) : [];
}

/** The node ids an input refers to (`{{seqAgent_0.data.instance}}`, or a list of them). */
export function references(value: unknown): string[] {
  const items = Array.isArray(value) ? value : value ? [value] : [];
  return items.flatMap((item) => {
    const id = /^\{\{(.+?)\.data\.instance\}\}$/.exec(String(item))?.[1];
    return id ? [id] : [];
  });
}

export function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** A name as Flowise names a graph's node: lower case, spaces as `_`. */
function graphName(name: string): string {
  return name.toLowerCase().replace(/\s/g, '_').trim();
}

/**
 * The ids the nodes get here: their names as Flowise names its graph's nodes (so a message is
 * signed `billing`, not `seqAgent_0`), made identifiers, each once; a node without a name is
 * called by its type (`start`, `end`, `end_2`).
 */
function nodeIds(nodes: readonly FlowiseNode[], reserved: readonly string[]): Map<string, string> {
  const taken = new Set(['user', ...reserved]);
  const ids = new Map<string, string>();
  for (const node of nodes) {
    const fallback = UNNAMED[node.data.name];
    if (!fallback) continue;
    const field = NAME_FIELDS[node.data.name];
    const named = field
      ? text(node.data.inputs?.[field])
      : node.data.name.endsWith('Agentflow')
        ? text(node.data.label)
        : '';
    const made = graphName(named)
      .replace(/[^a-z0-9_-]+/g, '_')
      .replace(/_+/g, '_')
      .replace(/^[_-]+|[_-]+$/g, '')
      .slice(0, 48);
    const base = !made ? fallback : /^\d/.test(made) ? `${fallback}_${made}` : made;
    let id = base;
    for (let n = 2; taken.has(id); n++) id = `${base}_${n}`;
    taken.add(id);
    ids.set(node.id, id);
  }
  return ids;
}

export function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The node where Flowise drew it (the canvas keeps Flowise's layout). */
export function withPosition<Node extends { position?: { x: number; y: number } }>(
  node: Node,
  position: unknown,
): Node {
  const at = position as { x?: unknown; y?: unknown } | undefined;
  if (!isRecord(at) || !Number.isFinite(at.x) || !Number.isFinite(at.y)) return node;
  return { ...node, position: { x: Math.round(at.x as number), y: Math.round(at.y as number) } };
}

/**
 * Positions all in one place (a file written by hand, or by a tool) draw nothing useful: the
 * canvas lays such a flow out itself.
 */
export function dropStackedPositions(nodes: { position?: { x: number; y: number } }[]): void {
  const places = new Set(nodes.map((node) => `${node.position?.x},${node.position?.y}`));
  if (nodes.length > 1 && places.size === 1) for (const node of nodes) delete node.position;
}
