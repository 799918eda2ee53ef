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
const TOOL_NAMES: Record<string, string> = {
  calculator: 'calculator',
  currentDateTime: 'current_time',
};

export class Importer {
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
