// The flow file: a Flowise-style Sequential Agents graph as plain JSON data (docs/flows.md).
//
// A flow is a directed graph of nodes over a shared state. `compileFlow` turns it into a
// BaseAgent that the Runner runs like any other agent.

import type { FlowNote, StartForm } from './flow-parts.ts';
import type { KnowledgeRef, RetrieverFormat } from './flow-knowledge.ts';

export type { KnowledgeRef, RetrieverFormat } from './flow-knowledge.ts';

/** Replace: a null (or missing) new value keeps the old one. Append: the result is an array. */
export type StateOperation = 'replace' | 'append';

/** A custom state key of the flow (Flowise's State node). */
export interface FlowStateKey {
  key: string;
  operation: StateOperation;
  /** Set at the start of a session when the key has no value yet. */
  default?: unknown;
}

/** What conversation an agent, llm or conditionAgent node sends to its model (Flowise's options). */
export const HISTORY_MODES = ['all', 'lastMessage', 'userQuestion', 'none'] as const;
export type HistoryMode = (typeof HISTORY_MODES)[number];

export const OUTPUT_FIELD_TYPES = [
  'string',
  'number',
  'boolean',
  'enum',
  'stringArray',
  'json',
] as const;
export type OutputFieldType = (typeof OUTPUT_FIELD_TYPES)[number];

/** A field of an llm node's structured output (Flowise's JSON Structured Output). */
export interface OutputField {
  key: string;
  type: OutputFieldType;
  /** The allowed values, for `enum`. */
  enum?: string[];
  description?: string;
}

/**
 * Flowise's condition operators. Files may also spell them as words ("not contains", "greater
 * or equal"): `parseOperation` in conditions.ts reads both.
 */
export const CONDITION_OPERATIONS = [
  'contains',
  'notContains',
  'startsWith',
  'endsWith',
  'is',
  'isNot',
  'isEmpty',
  'isNotEmpty',
  'greaterThan',
  'lessThan',
  'equalTo',
  'notEqualTo',
  'greaterOrEqual',
  'lessOrEqual',
  'regex',
] as const;
export type ConditionOperation = (typeof CONDITION_OPERATIONS)[number];

export interface ConditionRule {
  /** A template, usually `{{state.key}}` or `{{output.field}}`. */
  variable: string;
  operation: ConditionOperation | string;
  /** Compared with the variable (a template too); not needed by isEmpty / isNotEmpty. */
  value?: string | number | boolean;
  /** The `when` of the edge to follow when this rule is the first to match. */
  output: string;
}

/** `key → template` written to the state after the node ran (Flowise's Update State). */
export type UpdateState = Record<string, string>;

interface NodeBase {
  /** Unique in the flow; an identifier (letters, digits, `_`, `-`). Events of the node carry it. */
  id: string;
  /** A display name for the graph; the id when absent. */
  label?: string;
  /** Where the canvas draws it (top left, in canvas units); absent: the automatic layout. */
  position?: { x: number; y: number };
  /**
   * The Iteration node this node belongs to (Flowise's `parentNode`): it runs once per item of
   * that node's list, and its `position` is relative to that node's top left.
   */
  parent?: string;
}

export interface StartNode extends NodeBase {
  type: 'start';
  /** The default model of the flow, by name in `compileFlow`'s `models`. */
  model?: string;
  /** Messages containing one of `blocked` (case-insensitive) are answered with `message`. */
  moderation?: { blocked: string[]; message?: string };
  /**
   * A form the user fills to start a run (Flowise V2's form input): the chat shows it instead of
   * the message box, and its values reach the nodes as `{{form.name}}`.
   */
  form?: StartForm;
}

export { FORM_FIELD_TYPES, FORM_STATE_KEY } from './flow-parts.ts';
export type { FlowNote, FormField, FormFieldType, StartForm } from './flow-parts.ts';

export interface AgentNode extends NodeBase {
  type: 'agent';
  instruction: string;
  /** Tool names, from `compileFlow`'s `tools`. */
  tools?: string[];
  /** A human approves (or rejects) each tool call before it runs. */
  requireApproval?: boolean;
  /** What the approval card asks (Flowise's Approval Prompt); a default question when absent. */
  approvalPrompt?: string;
  /** Knowledge bases it may search, each a tool the model calls (Flowise's Knowledge). */
  knowledge?: KnowledgeRef[];
  history?: HistoryMode;
  /** With history `all`: only the last this many messages (Flowise's window memory). */
  historyWindow?: number;
  model?: string;
  updateState?: UpdateState;
}

export interface LlmNode extends NodeBase {
  type: 'llm';
  instruction?: string;
  /** Tools the model may ask for; a tool node after this one runs the calls. */
  tools?: string[];
  /** Structured output: the model is asked for a JSON object with these fields. */
  output?: OutputField[];
  history?: HistoryMode;
  /** With history `all`: only the last this many messages (Flowise's window memory). */
  historyWindow?: number;
  model?: string;
  updateState?: UpdateState;
}

export interface ToolNode extends NodeBase {
  type: 'tool';
  /**
   * The tools it may run (the calls of the llm node before it must name one of them). Empty: it
   * runs none (an imported flow's tool with no counterpart here, until one is added).
   */
  tools: string[];
  /**
   * With no calls to run, the branch ends here instead of passing on: Flowise's LLM Node → Tool
   * Node, where an answer without tool calls is the model node's last word.
   */
  endWithoutCalls?: boolean;
  /** Knowledge bases it may search, as tools (Flowise's Retriever Tool); see AgentNode. */
  knowledge?: KnowledgeRef[];
  requireApproval?: boolean;
  /** What the approval card asks (Flowise's Approval Prompt). */
  approvalPrompt?: string;
  updateState?: UpdateState;
}

export interface ConditionNode extends NodeBase {
  type: 'condition';
  rules: ConditionRule[];
}

export interface ConditionAgentNode extends NodeBase {
  type: 'conditionAgent';
  instruction: string;
  /** The model answers with one of these; the edge whose `when` names it is followed. */
  scenarios: string[];
  history?: HistoryMode;
  /** With history `all`: only the last this many messages (Flowise's window memory). */
  historyWindow?: number;
  model?: string;
  updateState?: UpdateState;
}

export interface LoopNode extends NodeBase {
  type: 'loop';
  /** The node to go back to. */
  to: string;
  /** Jumps back at most this many times per run (default 5); then the loop's other edges. */
  maxLoops?: number;
  /** Said when the loop is exhausted and has no other edge. */
  fallback?: string;
}

export interface EndNode extends NodeBase {
  type: 'end';
}

/**
 * Asks the user to proceed or reject (Flowise V2's Human Input), as every approval is asked: the
 * edge whose `when` is `proceed` or `reject` is followed, and the user's feedback, if any, is the
 * node's output (else what led there).
 */
export interface HumanInputNode extends NodeBase {
  type: 'humanInput';
  /** What the user is asked (templates filled). */
  description: string;
}

/** Answers with a message (templates filled) and ends its branch (Flowise V2's Direct Reply). */
export interface ReplyNode extends NodeBase {
  type: 'reply';
  message: string;
}

/**
 * Runs its child nodes (those whose `parent` is this node) once per item of a list (Flowise V2's
 * Iteration): `{{iteration.item}}` and `{{iteration.index}}` in their texts. The children with no
 * edge into them from another child start each item; an item ends when no child of it runs. Its
 * output: the list of each item's last output.
 */
export interface IterationNode extends NodeBase {
  type: 'iteration';
  /** A template whose value is the list (an array, or JSON text of one). */
  input: string;
  /** The size the canvas draws it at (it holds its children). */
  size?: { width: number; height: number };
}

/**
 * JavaScript run in a sandbox (Flowise V2's Custom Function): QuickJS in WebAssembly, with no
 * network, no DOM and no `require`, within a time and a memory limit. The code is the body of an
 * async function; it sees `$input`, `$flow` (`{ input, state, sessionId, form }`) and each of
 * `variables` as `$name`. Output: what it returns (JSON values).
 */
export interface CodeNode extends NodeBase {
  type: 'code';
  code: string;
  /** `name → template`: `$name` in the code. */
  variables?: Record<string, string>;
  /** Stopped after this many milliseconds (default 2000; at most 60000). */
  timeoutMs?: number;
  /** Stopped past this many megabytes of memory (default 32; from 16 to 256). */
  memoryMb?: number;
  updateState?: UpdateState;
}

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];
export const HTTP_BODY_TYPES = ['none', 'json', 'form', 'text'] as const;
export type HttpBodyType = (typeof HTTP_BODY_TYPES)[number];

/**
 * Sends an HTTP request (Flowise V2's HTTP node); every text may hold templates. Output: the
 * response body (parsed JSON when the server says it is JSON, else text).
 */
export interface HttpNode extends NodeBase {
  type: 'http';
  method: HttpMethod;
  url: string;
  headers?: Record<string, string>;
  query?: Record<string, string>;
  bodyType?: HttpBodyType;
  /** JSON text (`json`), `key=value` lines (`form`), or text. */
  body?: string;
  /** Stopped after this many milliseconds (default 30000). */
  timeoutMs?: number;
  updateState?: UpdateState;
}

/** Calls one tool with set arguments, each a template (Flowise V2's Tool). Output: its result. */
export interface ToolCallNode extends NodeBase {
  type: 'toolCall';
  /** A tool name from `compileFlow`'s `tools`; empty until one is chosen (it then passes on). */
  tool: string;
  args?: Record<string, string>;
  requireApproval?: boolean;
  approvalPrompt?: string;
  updateState?: UpdateState;
}

/**
 * Runs another flow as one node (Flowise V2's Execute Flow), its messages on a branch of its own
 * (its state keys are the session's, as every flow's). Output: its answer.
 */
export interface SubflowNode extends NodeBase {
  type: 'subflow';
  /** The other flow's name, from `compileFlow`'s `flows`. */
  flow: string;
  /** What it is asked (a template); this turn's message when absent. */
  input?: string;
  updateState?: UpdateState;
}

/**
 * Searches knowledge bases for a query (Flowise V2's Retriever): a step, not a tool. Its search is
 * in the log as a call and its answer (`{ sources }`, the chat's references); output: the sources
 * as text (`textWithMetadata`: with each one's document and place).
 */
export interface RetrieverNode extends NodeBase {
  type: 'retriever';
  knowledge: KnowledgeRef[];
  /** What to search for (a template); the user's message when empty. */
  query?: string;
  format?: RetrieverFormat;
  /** Sources at most (default 5, at most 50). */
  limit?: number;
  updateState?: UpdateState;
}

export type FlowNode =
  | StartNode
  | AgentNode
  | LlmNode
  | ToolNode
  | ConditionNode
  | ConditionAgentNode
  | LoopNode
  | EndNode
  | ReplyNode
  | HumanInputNode
  | IterationNode
  | CodeNode
  | HttpNode
  | ToolCallNode
  | SubflowNode
  | RetrieverNode;

export type FlowNodeType = FlowNode['type'];

/** The `when`s of the edges out of a Human Input node: the user's two answers. */
export const HUMAN_ANSWERS: readonly string[] = ['proceed', 'reject'];

export const NODE_TYPES: readonly FlowNodeType[] = [
  'start',
  'agent',
  'llm',
  'tool',
  'condition',
  'conditionAgent',
  'loop',
  'end',
  'reply',
  'humanInput',
  'iteration',
  'code',
  'http',
  'toolCall',
  'subflow',
  'retriever',
];

export interface FlowEdge {
  from: string;
  to: string;
  /**
   * For edges out of a condition node: a rule's `output`, or `'else'`. Out of a conditionAgent:
   * a scenario. Absent: unconditional (several unconditional edges run in parallel).
   */
  when?: string;
}

export interface Flow {
  name: string;
  description?: string;
  state?: FlowStateKey[];
  nodes: FlowNode[];
  edges: FlowEdge[];
  /** Notes on the canvas (they do not run). */
  notes?: FlowNote[];
  /** A run stops with an error after this many node runs (default 100). */
  maxSteps?: number;
}

/**
 * The sizes a flow may have (validateFlow checks them), so that a file cannot make the editor, the
 * Agent select or a run lay out or walk something unbounded.
 */
export const FLOW_LIMITS = {
  name: 100,
  description: 1000,
  nodeId: 64,
  label: 100,
  stateKey: 200,
  /** An instruction, a fallback, a moderation message, a template. */
  text: 50_000,
  nodes: 500,
  edges: 2000,
} as const;

/** The agent name of a flow: its name with anything but letters, digits, `_` and `-` as `_`. */
export function flowAgentName(flowName: string): string {
  const name = flowName.replace(/[^A-Za-z0-9_-]/g, '_') || 'flow';
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

export const DEFAULT_MAX_STEPS = 100;
export const DEFAULT_MAX_LOOPS = 5;

/** A problem found by `validateFlow`, with the node it concerns. */
export interface FlowProblem {
  nodeId?: string;
  message: string;
}
