// The nodes of a workflow graph, with ADK 2.0's names and rules: `BaseNode` (a unit of work that
// yields events or values), `FunctionNode` (a plain function, sync, async or a generator, called
// with the node's context and its input), `JoinNode` (waits for every predecessor and outputs
// their outputs by name) and `START`. A value a node yields is its output: an event authored by
// the node carries it in `output`, and as text in `content` (a string as it is, anything else as
// JSON), so the chat shows it; a Content yielded is a message without an output.

import { InvalidRequestError } from '../core/errors.ts';
import type { Content, Part } from '../core/content.ts';
import { createEvent, type Event } from '../core/event.ts';
import { newFunctionCallId } from '../core/ids.ts';
import { hasKeys } from '../core/state.ts';
import type { NodeContext } from './node-context.ts';
import type { RetryConfig } from './retry.ts';
import { parseWithSchema, type NodeSchema } from './node-schema.ts';

/** Marks what can stand in a graph: a BaseNode, or a Workflow (which is also an agent). */
export const NODE_BRAND: unique symbol = Symbol.for('trellis.workflow.node') as never;

/** What the engine needs of a node: its name, its rules, and a run that yields events. */
export interface GraphNode {
  readonly [NODE_BRAND]: true;
  readonly name: string;
  readonly rerunOnResume: boolean;
  readonly waitForOutput: boolean;
  readonly requiresAllPredecessors: boolean;
  readonly retryConfig?: RetryConfig | undefined;
  /** Seconds an attempt may take; past it the node fails with a NodeTimeoutError. */
  readonly timeout?: number | undefined;
  /**
   * Its events are its own record and stay as they are: no node path, no recorded input, no
   * pause event of the engine's (a flow's nodes, whose events the flow reads itself).
   */
  readonly keepsEvents?: boolean;
  run(ctx: NodeContext, input: unknown): AsyncGenerator<Event, void>;
}

export type { RetryConfig } from './retry.ts';

export interface BaseNodeOptions {
  /** Unique in its graph. */
  name: string;
  description?: string;
  /** Runs again when its workflow resumes, even if it finished before (default false). */
  rerunOnResume?: boolean;
  /** Its output counts only once it has one (a node that yields none waits to be run again). */
  waitForOutput?: boolean;
  retryConfig?: RetryConfig;
  /** Seconds each attempt may take (ADK's `timeout`); past it the node fails. */
  timeout?: number;
  /** What its input must be: a Zod schema (its parse result is the input) or a JSON Schema. */
  inputSchema?: NodeSchema;
  /** What its outputs must be, the same way. */
  outputSchema?: NodeSchema;
}

/** The function call a node waiting for a human makes (ADK 2.0's name). */
export const REQUEST_INPUT_FUNCTION = 'adk_request_input';

const REQUEST_INPUT_BRAND = Symbol.for('trellis.workflow.requestInput');

export interface RequestInputOptions {
  /** The id of the call, and of the answer that resumes the node (default: a fresh one). */
  interruptId?: string;
  /** What to ask. */
  message?: string;
  /** Data for whoever answers. */
  payload?: unknown;
  /** A JSON Schema the answer must fit (a form in the app). */
  responseSchema?: Record<string, unknown>;
}

/**
 * Yielded by a node to wait for a human (ADK 2.0's `RequestInput`): the workflow writes an
 * `adk_request_input` call whose id is the interrupt id and pauses; the answer, a function
 * response to that call, is the node's output when the workflow resumes (a node that has
 * `rerunOnResume` runs again instead).
 */
export class RequestInput {
  readonly [REQUEST_INPUT_BRAND] = true;
  readonly interruptId: string;
  readonly message: string | undefined;
  readonly payload: unknown;
  readonly responseSchema: Record<string, unknown> | undefined;

  constructor(options: RequestInputOptions = {}) {
    this.interruptId = options.interruptId ?? newFunctionCallId();
    this.message = options.message;
    this.payload = options.payload;
    this.responseSchema = options.responseSchema;
  }
}

export function isRequestInput(value: unknown): value is RequestInput {
  return typeof value === 'object' && value !== null && REQUEST_INPUT_BRAND in value;
}

/** What a node may yield: an event, a value (its output), a Content, or nothing. */
export type NodeItem = Event | Content | unknown;

export abstract class BaseNode implements GraphNode {
  readonly [NODE_BRAND] = true as const;
  readonly name: string;
  readonly description: string;
  readonly rerunOnResume: boolean;
  readonly waitForOutput: boolean;
  readonly retryConfig: RetryConfig | undefined;
  readonly timeout: number | undefined;
  readonly inputSchema: NodeSchema | undefined;
  readonly outputSchema: NodeSchema | undefined;

  constructor(options: BaseNodeOptions) {
    const name = typeof options.name === 'string' ? options.name.trim() : '';
    if (!name) throw new InvalidRequestError('A workflow node needs a name');
    this.name = name;
    this.description = options.description ?? '';
    this.rerunOnResume = options.rerunOnResume ?? false;
    this.waitForOutput = options.waitForOutput ?? false;
    this.retryConfig = options.retryConfig;
    const timeout = options.timeout;
    if (timeout !== undefined && !(typeof timeout === 'number' && timeout > 0)) {
      throw new InvalidRequestError(`Node ${name}: timeout is a number of seconds above 0`);
    }
    this.timeout = timeout;
    this.inputSchema = options.inputSchema;
    this.outputSchema = options.outputSchema;
  }

  /** Whether it runs only once every predecessor has finished (a join). */
  get requiresAllPredecessors(): boolean {
    return false;
  }

  /** The node's work: events or values, as it makes them. */
  protected abstract runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<NodeItem, void>;

  /**
   * Runs the node, each item it yields made an event of it; its input and outputs checked
   * against its schemas first.
   */
  async *run(ctx: NodeContext, input: unknown): AsyncGenerator<Event, void> {
    const checked = isContent(input)
      ? input
      : parseWithSchema(this.inputSchema, input, this.name, 'input');
    for await (let item of this.runImpl(ctx, checked)) {
      if (isRequestInput(item)) {
        yield requestInputEvent(ctx, this.name, item);
        continue;
      }
      if (isEvent(item)) {
        if (item.output !== undefined && !isContent(item.output))
          item.output = parseWithSchema(this.outputSchema, item.output, this.name, 'output');
      } else if (item !== undefined && item !== null && !isContent(item)) {
        item = parseWithSchema(this.outputSchema, item, this.name, 'output');
      }
      const event = this.toEvent(ctx, item);
      if (event) yield event;
    }
  }

  protected toEvent(ctx: NodeContext, item: NodeItem): Event | undefined {
    if (item === undefined || item === null) return undefined;
    if (isEvent(item)) return item;
    if (isContent(item)) return nodeEvent(ctx, this.name, { content: item });
    return nodeEvent(ctx, this.name, { content: contentOf(item), output: item });
  }
}

export function isGraphNode(value: unknown): value is GraphNode {
  return typeof value === 'object' && value !== null && NODE_BRAND in value;
}

class StartNode extends BaseNode {
  // eslint-disable-next-line require-yield
  protected async *runImpl(): AsyncGenerator<NodeItem, void> {
    throw new Error('START is never run');
  }
}

/** Where a graph begins (ADK's `START`; `'START'` in an edge chain means it too). */
export const START: BaseNode = new StartNode({ name: '__START__' });

/** A node's handler: its context and input in, its output (or events, or values) out. */
export type FunctionNodeHandler = (ctx: NodeContext, input: never) => unknown;

/** A plain function as a node: its return value is the node's output. */
export class FunctionNode extends BaseNode {
  readonly handler: FunctionNodeHandler;

  constructor(
    name: string,
    handler: FunctionNodeHandler,
    options: Omit<BaseNodeOptions, 'name'> = {},
  ) {
    if (typeof handler !== 'function') {
      throw new InvalidRequestError('A FunctionNode needs a function');
    }
    super({ ...options, name });
    this.handler = handler;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<NodeItem, void> {
    const result = (this.handler as (ctx: NodeContext, input: unknown) => unknown)(ctx, input);
    if (isAsyncIterable(result)) {
      for await (const item of result) yield item;
    } else if (isIterator(result)) {
      for (const item of result as Iterable<unknown>) yield item;
    } else {
      yield await result;
    }
    // What it wrote to the state after its last item still gets an event.
    yield undefined;
  }

  /** As BaseNode's, each event carrying the state changes made since the last one. */
  protected override toEvent(ctx: NodeContext, item: NodeItem): Event | undefined {
    const stateDelta = takeDelta(ctx);
    if (item === undefined || item === null) {
      return stateDelta ? nodeEvent(ctx, this.name, { stateDelta }) : undefined;
    }
    if (isEvent(item)) {
      if (stateDelta) item.actions.stateDelta = { ...stateDelta, ...item.actions.stateDelta };
      return item;
    }
    if (isContent(item)) return nodeEvent(ctx, this.name, { content: item, stateDelta });
    const event = nodeEvent(ctx, this.name, { content: contentOf(item), output: item, stateDelta });
    // The route goes with the output, so that a resumed workflow takes the same edges.
    if (ctx.route !== undefined) event.route = ctx.route;
    return event;
  }
}

/** Waits for all its predecessors; its output is theirs, by node name. */
export class JoinNode extends BaseNode {
  override get requiresAllPredecessors(): boolean {
    return true;
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<NodeItem, void> {
    yield nodeEvent(ctx, this.name, { output: input });
  }
}

export function nodeEvent(
  ctx: NodeContext,
  author: string,
  fields: {
    content?: Content | undefined;
    output?: unknown;
    stateDelta?: Record<string, unknown> | undefined;
  },
): Event {
  const event = createEvent({
    invocationId: ctx.invocationId,
    author,
    ...(ctx.branch !== undefined ? { branch: ctx.branch } : {}),
    ...(fields.content ? { content: fields.content } : {}),
    ...(fields.stateDelta ? { actions: { stateDelta: fields.stateDelta } } : {}),
  });
  if (fields.output !== undefined) event.output = fields.output;
  return event;
}

function requestInputEvent(ctx: NodeContext, author: string, request: RequestInput): Event {
  const id = request.interruptId;
  const args = {
    interruptId: id,
    payload: request.payload ?? null,
    message: request.message ?? null,
    response_schema: request.responseSchema ?? null,
  };
  return createEvent({
    invocationId: ctx.invocationId,
    author,
    ...(ctx.branch !== undefined ? { branch: ctx.branch } : {}),
    content: {
      role: 'model',
      parts: [{ functionCall: { id, name: REQUEST_INPUT_FUNCTION, args } }],
    },
    longRunningToolIds: [id],
  });
}

/** The node's state changes not yet written into an event, taken. */
function takeDelta(ctx: NodeContext): Record<string, unknown> | undefined {
  if (!hasKeys(ctx.stateDelta)) return undefined;
  const delta = { ...ctx.stateDelta };
  for (const key of Object.keys(ctx.stateDelta)) delete ctx.stateDelta[key];
  return delta;
}

/**
 * A value as the message the chat shows, as ADK makes it: a string is a text part; a Part (an
 * object with `text`, `inlineData`, `functionCall`…) is itself; a non-empty array of strings and
 * Parts is one part each; anything else is its JSON as text.
 */
export function contentOf(value: unknown): Content | undefined {
  if (value === undefined || value === null) return undefined;
  if (isContent(value)) return value;
  const partOf = (item: unknown): Part | undefined =>
    typeof item === 'string' ? { text: item } : isPart(item) ? item : undefined;
  const single = partOf(value);
  if (single) return { role: 'model', parts: [single] };
  if (Array.isArray(value) && value.length > 0) {
    const parts = value.map(partOf);
    if (parts.every((p) => p !== undefined)) return { role: 'model', parts: parts as Part[] };
  }
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return { role: 'model', parts: [{ text }] };
}

const PART_KEYS = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'videoMetadata',
  'codeExecutionResult',
  'executableCode',
];

function isPart(value: unknown): value is Part {
  return typeof value === 'object' && value !== null && PART_KEYS.some((key) => key in value);
}

export function isContent(value: unknown): value is Content {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { parts?: unknown }).parts)
  );
}

function isEvent(value: unknown): value is Event {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Partial<Event>).id === 'string' &&
    typeof (value as Partial<Event>).invocationId === 'string' &&
    typeof (value as Partial<Event>).actions === 'object'
  );
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    value !== null &&
    value !== undefined &&
    typeof (value as { [Symbol.asyncIterator]?: unknown })[Symbol.asyncIterator] === 'function'
  );
}

function isIterator(value: unknown): boolean {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { [Symbol.iterator]?: unknown })[Symbol.iterator] === 'function' &&
    typeof (value as { next?: unknown }).next === 'function'
  );
}
