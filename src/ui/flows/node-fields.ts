// The fields of each node type's form, in Flowise's terms and in the order its forms show them
// (node-form-model.ts reads and writes them; NodeForm.tsx draws them). A key with a dot is a
// field of an object of the node (`moderation.blocked`).

import {
  CONDITION_OPERATIONS,
  FORM_FIELD_TYPES,
  HISTORY_MODES,
  HTTP_BODY_TYPES,
  HTTP_METHODS,
  OUTPUT_FIELD_TYPES,
} from '../../flows/flow.ts';
import type { FlowNodeType } from '../../flows/flow.ts';
import { RETRIEVER_FORMATS } from '../../flows/flow-knowledge.ts';

export type FieldKind =
  'text' | 'longText' | 'code' | 'boolean' | 'number' | 'choice' | 'list' | 'rows' | 'startForm';

export interface RowColumn {
  key: string;
  label: string;
  /** Choices, for a column that takes one of them. */
  choices?: readonly string[];
  /** The cell is a list, typed comma-separated (an enum's values, a form field's options). */
  list?: boolean;
  /** The cell picks a knowledge base (by id) from the user's bases. */
  bases?: boolean;
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
   * `tools`, the demo tools and the tool servers' (`Server/tool`); `flows`, the saved flows.
   */
  suggestions?: 'models' | 'tools' | 'flows';
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
/** A table of `key → value` (templates), written as an object. */
const keyValues = (key: string, label: string, name: string, value = 'Value'): FieldSpec => ({
  key,
  label,
  kind: 'rows',
  map: true,
  columns: [
    { key: 'key', label: name },
    { key: 'value', label: value },
  ],
});
const UPDATE_STATE = keyValues('updateState', 'Update state', 'Key', 'Value (e.g. {{output}})');
const TOOLS: FieldSpec = {
  key: 'tools',
  label: 'Tools',
  kind: 'list',
  item: 'tool',
  suggestions: 'tools',
};
/** Knowledge bases a node searches: each a tool (Agent, Tool Node) or a Retriever's bases. */
const KNOWLEDGE: FieldSpec = {
  key: 'knowledge',
  label: 'Knowledge',
  kind: 'rows',
  columns: [
    { key: 'baseId', label: 'Knowledge base', bases: true },
    { key: 'name', label: 'Tool name' },
    { key: 'description', label: 'Description' },
    { key: 'source', label: 'In Flowise' },
  ],
};
const APPROVAL: FieldSpec = { key: 'requireApproval', label: 'Require approval', kind: 'boolean' };
const APPROVAL_PROMPT: FieldSpec = {
  key: 'approvalPrompt',
  label: 'Approval prompt',
  kind: 'text',
  hint: 'What the approval asks; empty: “Approve this call?”',
};

/** The fields of a start form (Flowise V2's Form Input), a table of the form. */
export const FORM_FIELDS: FieldSpec = {
  key: 'fields',
  label: 'Form fields',
  kind: 'rows',
  columns: [
    { key: 'name', label: 'Name ({{form.name}})' },
    { key: 'label', label: 'Label' },
    { key: 'type', label: 'Type', choices: FORM_FIELD_TYPES },
    { key: 'options', label: 'Options (comma-separated)', list: true },
  ],
};

/** The fields of each node type, in the order Flowise's forms show them. */
export const NODE_FIELDS: Record<FlowNodeType, readonly FieldSpec[]> = {
  start: [
    LABEL,
    { ...MODEL, hint: 'Provider name/model; empty: the offline demo model' },
    { key: 'form', label: 'Input type', kind: 'startForm' },
    {
      key: 'moderation.blocked',
      label: 'Moderation: blocked words',
      kind: 'list',
      item: 'word or phrase',
    },
    {
      key: 'moderation.message',
      label: 'Moderation: reply to a blocked message',
      kind: 'text',
    },
  ],
  agent: [
    LABEL,
    { key: 'instruction', label: 'System prompt', kind: 'longText' },
    TOOLS,
    KNOWLEDGE,
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
        { key: 'enum', label: 'Enum values (comma-separated)', list: true },
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
    KNOWLEDGE,
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
    { key: 'maxLoops', label: 'Max loops', kind: 'number', hint: 'Default 5' },
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
  iteration: [
    LABEL,
    {
      key: 'input',
      label: 'Array input',
      kind: 'text',
      hint: 'A list to run the nodes inside once per item, e.g. {{state.items}}',
    },
  ],
  code: [
    LABEL,
    keyValues(
      'variables',
      'Input variables',
      'Name ($name in the code)',
      'Value (e.g. {{state.x}})',
    ),
    {
      key: 'code',
      label: 'JavaScript function',
      kind: 'code',
      hint: 'The body of an async function: it sees $input, $flow and each variable as $name, and returns the output',
    },
    {
      key: 'timeoutMs',
      label: 'Time limit (ms)',
      kind: 'number',
      hint: 'Default 2000, at most 60000',
    },
    {
      key: 'memoryMb',
      label: 'Memory limit (MB)',
      kind: 'number',
      hint: 'Default 32, at most 256',
    },
    UPDATE_STATE,
  ],
  http: [
    LABEL,
    { key: 'method', label: 'Method', kind: 'choice', choices: HTTP_METHODS },
    { key: 'url', label: 'URL', kind: 'text', hint: 'https://…, templates too' },
    keyValues('headers', 'Headers', 'Header'),
    keyValues('query', 'Query parameters', 'Name'),
    { key: 'bodyType', label: 'Body type', kind: 'choice', choices: ['', ...HTTP_BODY_TYPES] },
    {
      key: 'body',
      label: 'Body',
      kind: 'code',
      hint: 'JSON text (json), key=value lines (form), or text',
    },
    { key: 'timeoutMs', label: 'Timeout (ms)', kind: 'number', hint: 'Default 30000' },
    UPDATE_STATE,
  ],
  toolCall: [
    LABEL,
    { key: 'tool', label: 'Tool', kind: 'text', suggestions: 'tools' },
    keyValues('args', 'Tool arguments', 'Argument', 'Value (e.g. {{output.x}})'),
    APPROVAL,
    APPROVAL_PROMPT,
    UPDATE_STATE,
  ],
  subflow: [
    LABEL,
    { key: 'flow', label: 'Flow to run (its name)', kind: 'text', suggestions: 'flows' },
    { key: 'input', label: 'Input', kind: 'text', hint: 'Empty: this turn’s message' },
    UPDATE_STATE,
  ],
  retriever: [
    LABEL,
    KNOWLEDGE,
    {
      key: 'query',
      label: 'Query',
      kind: 'text',
      hint: 'e.g. {{state.query}}; empty: the message',
    },
    { key: 'format', label: 'Output format', kind: 'choice', choices: ['', ...RETRIEVER_FORMATS] },
    { key: 'limit', label: 'Sources at most', kind: 'number', hint: 'Default 5, at most 50' },
    UPDATE_STATE,
  ],
};

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
