// The node form of the Flows view, its pure part: which fields a node of each type has (in
// Flowise's terms), and the flow text with one node's field changed, so that the form and the JSON
// editor are two views of one text.

import { CONDITION_OPERATIONS, HISTORY_MODES, OUTPUT_FIELD_TYPES } from '../../flows/flow.ts';
import type { FlowNodeType } from '../../flows/flow.ts';
import { flowText } from './flow-editor-model.ts';

export type FieldKind = 'text' | 'longText' | 'boolean' | 'number' | 'choice' | 'list' | 'rows';

export interface RowColumn {
  key: string;
  label: string;
  /** Choices, for a column that takes one of them. */
  choices?: readonly string[];
}

export interface FieldSpec {
  key: string;
  label: string;
  kind: FieldKind;
  /** For `choice`. */
  choices?: readonly string[];
  /** For `list`: what one item is ("tool name", "scenario"). */
  item?: string;
  /** For `rows`: the table's columns; `map` rows are an object of key → value. */
  columns?: readonly RowColumn[];
  map?: boolean;
  hint?: string;
  /**
   * Choices offered beside the field: `models`, the providers' models (as the user types);
   * `tools`, the demo tools and the tool servers' (`Server/tool`), to add to the list.
   */
  suggestions?: 'models' | 'tools';
}

const LABEL: FieldSpec = { key: 'label', label: 'Name', kind: 'text' };
const MODEL: FieldSpec = {
  key: 'model',
  label: 'Model',
  kind: 'text',
  hint: 'Provider name/model; empty: the flow’s',
  suggestions: 'models',
};
const HISTORY: FieldSpec = {
  key: 'history',
  label: 'Conversation history',
  kind: 'choice',
  choices: ['', ...HISTORY_MODES],
};
const UPDATE_STATE: FieldSpec = {
  key: 'updateState',
  label: 'Update state',
  kind: 'rows',
  map: true,
  columns: [
    { key: 'key', label: 'Key' },
    { key: 'value', label: 'Value (e.g. {{output}})' },
  ],
};
const TOOLS: FieldSpec = {
  key: 'tools',
  label: 'Tools',
  kind: 'list',
  item: 'tool',
  suggestions: 'tools',
};
const APPROVAL: FieldSpec = { key: 'requireApproval', label: 'Require approval', kind: 'boolean' };
const APPROVAL_PROMPT: FieldSpec = {
  key: 'approvalPrompt',
  label: 'Approval prompt',
  kind: 'text',
  hint: 'What the approval asks; empty: “Approve this call?”',
};

/** The fields of each node type, in the order Flowise's forms show them. */
export const NODE_FIELDS: Record<FlowNodeType, readonly FieldSpec[]> = {
  start: [LABEL, { ...MODEL, hint: 'Provider name/model; empty: the offline demo model' }],
  agent: [
    LABEL,
    { key: 'instruction', label: 'System prompt', kind: 'longText' },
    TOOLS,
    APPROVAL,
    APPROVAL_PROMPT,
    HISTORY,
    MODEL,
    UPDATE_STATE,
  ],
  llm: [
    LABEL,
    { key: 'instruction', label: 'Prompt', kind: 'longText' },
    TOOLS,
    {
      key: 'output',
      label: 'Structured output',
      kind: 'rows',
      columns: [
        { key: 'key', label: 'Key' },
        { key: 'type', label: 'Type', choices: OUTPUT_FIELD_TYPES },
        { key: 'enum', label: 'Enum values (comma-separated)' },
        { key: 'description', label: 'Description' },
      ],
    },
    HISTORY,
    MODEL,
    UPDATE_STATE,
  ],
  tool: [
    LABEL,
    TOOLS,
    APPROVAL,
    APPROVAL_PROMPT,
    { key: 'endWithoutCalls', label: 'End here when no tool is asked for', kind: 'boolean' },
    UPDATE_STATE,
  ],
  condition: [
    LABEL,
    {
      key: 'rules',
      label: 'Rules',
      kind: 'rows',
      columns: [
        { key: 'variable', label: 'Variable (e.g. {{state.key}})' },
        { key: 'operation', label: 'Operation', choices: CONDITION_OPERATIONS },
        { key: 'value', label: 'Value' },
        { key: 'output', label: 'Output name' },
      ],
    },
  ],
  conditionAgent: [
    LABEL,
    { key: 'instruction', label: 'Prompt', kind: 'longText' },
    { key: 'scenarios', label: 'Scenarios', kind: 'list', item: 'scenario' },
    HISTORY,
    MODEL,
    UPDATE_STATE,
  ],
  loop: [
    LABEL,
    { key: 'to', label: 'Loop to (node id)', kind: 'text' },
    { key: 'maxLoops', label: 'Max loops', kind: 'number' },
    { key: 'fallback', label: 'Reply after the last loop', kind: 'text' },
  ],
  end: [LABEL],
  humanInput: [
    LABEL,
    {
      key: 'description',
      label: 'Description',
      kind: 'longText',
      hint: 'What the user is asked to proceed with or reject',
    },
  ],
  reply: [
    LABEL,
    {
      key: 'message',
      label: 'Message',
      kind: 'longText',
      hint: 'Templates: {{output}}, {{state.x}}…',
    },
  ],
};

export type Row = Record<string, string>;

/** The flow's state keys (Flowise's State node), a table of the flow rather than of a node. */
export const STATE_FIELD: FieldSpec = {
  key: 'state',
  label: 'State keys',
  kind: 'rows',
  columns: [
    { key: 'key', label: 'Key' },
    { key: 'operation', label: 'Operation', choices: ['replace', 'append'] },
    { key: 'default', label: 'Default (JSON, or text)' },
  ],
};

/**
 * The flow's state keys as the State form shows them (each default as JSON, a text as it is);
 * undefined when the text is no flow.
 */
export function stateOf(text: string): { state: Row[] } | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const entries = Array.isArray(flow.state) ? (flow.state as Record<string, unknown>[]) : [];
  return {
    state: entries.map((entry) => ({
      key: typeof entry?.key === 'string' ? entry.key : '',
      operation: typeof entry?.operation === 'string' ? entry.operation : '',
      default:
        entry?.default === undefined
          ? ''
          : typeof entry.default === 'string'
            ? entry.default
            : JSON.stringify(entry.default),
    })),
  };
}

/** The flow text with its state keys set from the State form's rows (undefined: no flow). */
export function withState(text: string, rows: readonly Row[]): string | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const state = rows
    .filter((row) => Object.values(row).some((cell) => cell.trim()))
    .map((row) => ({
      key: row.key ?? '',
      operation: row.operation || 'replace',
      ...(row.default ? { default: jsonOrText(row.default) } : {}),
    }));
  const next = { ...flow };
  if (state.length > 0) next.state = state;
  else delete next.state;
  return flowText(next);
}

/** A cell typed as JSON (`[]`, `null`, `3`, `{"a": 1}`) is that value; anything else, the text. */
function jsonOrText(cell: string): unknown {
  try {
    return JSON.parse(cell);
  } catch {
    return cell;
  }
}

/** The flow's name and description as its details form shows them; undefined: no flow. */
export function detailsOf(text: string): { name: string; description: string } | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const said = (value: unknown) => (typeof value === 'string' ? value : '');
  return { name: said(flow.name), description: said(flow.description) };
}

/** The flow text with its name or description set (an empty description is removed). */
export function withDetail(
  text: string,
  key: 'name' | 'description',
  value: string,
): string | undefined {
  const flow = parse(text);
  if (!flow) return undefined;
  const next = { ...flow, [key]: value };
  if (key === 'description' && !value) delete next.description;
  return flowText(next);
}

/** A node as the form shows it: the node's own object, or undefined when the text is no flow. */
export function nodeOf(text: string, nodeId: string): Record<string, unknown> | undefined {
  const flow = parse(text);
  const nodes = Array.isArray(flow?.nodes) ? (flow.nodes as unknown[]) : [];
  return nodes.find(
    (node): node is Record<string, unknown> =>
      !!node && typeof node === 'object' && (node as { id?: unknown }).id === nodeId,
  );
}

/** A field's rows for the table (an array of objects, or a map shown as key/value rows). */
export function rowsOf(node: Record<string, unknown>, field: FieldSpec): Row[] {
  const value = node[field.key];
  if (field.map) {
    return value && typeof value === 'object' && !Array.isArray(value)
      ? Object.entries(value).map(([key, v]) => ({ key, value: String(v) }))
      : [];
  }
  return Array.isArray(value)
    ? value.map((row) =>
        Object.fromEntries(
          (field.columns ?? []).map((column) => {
            const cell = (row as Record<string, unknown>)?.[column.key];
            return [
              column.key,
              Array.isArray(cell) ? cell.join(', ') : cell == null ? '' : String(cell),
            ];
          }),
        ),
      )
    : [];
}

/** The value a field's input gives, as the flow stores it (undefined: the field is left out). */
export function valueOf(field: FieldSpec, input: string | boolean | Row[]): unknown {
  switch (field.kind) {
    case 'boolean':
      return input === true ? true : undefined;
    case 'number': {
      const number = Number(input);
      return input === '' || !Number.isFinite(number) ? undefined : number;
    }
    case 'list': {
      const items = String(input)
        .split(/[\n,]/)
        .map((item) => item.trim())
        .filter(Boolean);
      return items.length > 0 ? items : undefined;
    }
    case 'rows': {
      const rows = (input as Row[]).filter((row) => Object.values(row).some((v) => v.trim()));
      if (field.map) {
        const map = Object.fromEntries(
          rows.filter((row) => row.key).map((row) => [row.key, row.value ?? '']),
        );
        return Object.keys(map).length > 0 ? map : undefined;
      }
      if (rows.length === 0) return undefined;
      return rows.map((row) => {
        const out: Record<string, unknown> = {};
        for (const [key, cell] of Object.entries(row)) {
          if (cell === '') continue;
          out[key] =
            key === 'enum'
              ? cell
                  .split(',')
                  .map((v) => v.trim())
                  .filter(Boolean)
              : cell;
        }
        return out;
      });
    }
    default:
      return input === '' ? undefined : input;
  }
}

/**
 * The flow text with one field of a node set (or removed, for undefined); undefined when the text
 * is not a flow the form can edit (it does not parse, or has no such node).
 */
export function withField(
  text: string,
  nodeId: string,
  key: string,
  value: unknown,
): string | undefined {
  const flow = parse(text);
  if (!flow || !Array.isArray(flow.nodes)) return undefined;
  let found = false;
  const nodes = (flow.nodes as Record<string, unknown>[]).map((node) => {
    if (node?.id !== nodeId) return node;
    found = true;
    const next = { ...node };
    if (value === undefined) delete next[key];
    else next[key] = value;
    return next;
  });
  return found ? flowText({ ...flow, nodes }) : undefined;
}

function parse(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
