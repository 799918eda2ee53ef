// A span as a run records it: what it measured, in fields of its own, and nothing that can be
// worked out when it is read. Its ids, its name and its attribute object are made by
// `spanRecordOf`, when a trace is read or written to a store of records (IndexedDB); a run in
// memory keeps its spans as they are. So a span costs its run one object and two clock reads,
// whatever it measures: no id, no name, no attribute object, no copy of its answer (this runs
// for every agent, model call and tool call of every run, and memory keeps every turn's).

import type { Event, ModelTiming } from '../core/event.ts';
import {
  spanIdOf,
  traceIdOf,
  type SpanAttribute,
  type SpanKey,
  type SpanKind,
  type SpanRecord,
} from './span.ts';

type Attributes = Record<string, SpanAttribute>;

/**
 * The root span of an invocation's first run (a resumed run's root is a span of its own): the
 * trace id's second half, known to every later run of the invocation.
 */
export function rootSpanIdOf(invocationId: string): string {
  return traceIdOf(invocationId).slice(16);
}

/** 8 hex digits of a 32-bit number. */
function hex8(value: number): string {
  return (value >>> 0).toString(16).padStart(8, '0');
}

/** What every span of one run of an invocation shares, kept once for the run. */
export class TraceRun implements SpanKey {
  readonly appName: string;
  readonly userId: string;
  readonly sessionId: string;
  readonly invocationId: string;
  /**
   * The first half of the run's span ids (the second is a span's number): random, never 0, and
   * under 2³¹, a small integer that V8 keeps in the field itself rather than in a heap number.
   */
  readonly idPrefix: number = 1 + Math.floor(Math.random() * 0x7ffffffe);
  private traceIdMemo: string | undefined;

  constructor(key: SpanKey & { invocationId: string }) {
    this.appName = key.appName;
    this.userId = key.userId;
    this.sessionId = key.sessionId;
    this.invocationId = key.invocationId;
  }

  get traceId(): string {
    return (this.traceIdMemo ??= traceIdOf(this.invocationId));
  }
}

/** Where a new span goes (an InvocationContext): under `span` (none: the root), on `branch`. */
export interface SpanParent {
  readonly span: OpenSpan | undefined;
  readonly branch: string | undefined;
}

export abstract class OpenSpan {
  /** When it ended, in ms since the epoch (absent: still open, as a wait nobody answered). */
  endTime: number | undefined = undefined;
  /** What went wrong, when the span failed. */
  error: string | undefined = undefined;

  constructor(
    readonly run: TraceRun,
    /** Its number in the run: the second half of its id. */
    readonly seq: number,
    /** The span it belongs under: one of the run, or the id of one (a wait's: the first run's). */
    readonly parent: OpenSpan | string | undefined,
    /** The ParallelAgent branch it ran on, if any. */
    readonly branch: string | undefined,
    /** When it began, in ms since the epoch. */
    readonly startTime: number,
  ) {}

  abstract get kind(): SpanKind;
  abstract get name(): string;
  /** Its attributes (GenAI semantic conventions' names where one exists), made anew. */
  abstract attributes(): Attributes;

  get spanId(): string {
    return hex8(this.run.idPrefix) + hex8(this.seq);
  }
}

/** The run of an invocation (its first, or a resumed one). */
export class InvocationSpan extends OpenSpan {
  /** How the run ended: finished, paused, interrupted, failed. */
  outcome: string | undefined = undefined;

  constructor(
    run: TraceRun,
    seq: number,
    startTime: number,
    readonly agentName: string,
    readonly resumed: boolean,
  ) {
    super(run, seq, undefined, undefined, startTime);
  }

  get kind() {
    return 'invocation' as const;
  }

  get name(): string {
    return this.resumed ? 'invocation (resumed)' : 'invocation';
  }

  /** The first run's is known to every later run (its waits belong under it). */
  override get spanId(): string {
    return this.resumed ? super.spanId : rootSpanIdOf(this.run.invocationId);
  }

  attributes(): Attributes {
    const attributes: Attributes = {
      'gen_ai.conversation.id': this.run.sessionId,
      'gen_ai.agent.name': this.agentName,
    };
    if (this.outcome !== undefined) attributes['trellis.outcome'] = this.outcome;
    return attributes;
  }
}

/** One run of an agent. */
export class AgentSpan extends OpenSpan {
  constructor(
    run: TraceRun,
    seq: number,
    parent: SpanParent,
    startTime: number,
    readonly agentName: string,
  ) {
    super(run, seq, parent.span, parent.branch, startTime);
  }

  get kind() {
    return 'agent' as const;
  }

  get name(): string {
    return `invoke_agent ${this.agentName}`;
  }

  attributes(): Attributes {
    return { 'gen_ai.agent.name': this.agentName };
  }
}

/** One attempt of a workflow node's run (ADK 2.0's `execute_node`): a retried node has several. */
export class NodeSpan extends OpenSpan {
  constructor(
    run: TraceRun,
    seq: number,
    parent: SpanParent,
    startTime: number,
    readonly nodePath: string,
    readonly attempt: number,
  ) {
    super(run, seq, parent.span, parent.branch, startTime);
  }

  get kind() {
    return 'node' as const;
  }

  get name(): string {
    return `execute_node ${this.nodePath}`;
  }

  attributes(): Attributes {
    return { 'trellis.node.path': this.nodePath, 'trellis.node.attempt': this.attempt };
  }
}

/** One model call: what was sent, and (`answered`) what the answer said. */
export class ModelSpan extends OpenSpan {
  /** The answer's event, and what it said (absent: no answer). */
  eventId: string | undefined = undefined;
  responseModel: string | undefined = undefined;
  inputTokens: number | undefined = undefined;
  outputTokens: number | undefined = undefined;
  firstTokenMs: number | undefined = undefined;
  finishReason: string | undefined = undefined;

  constructor(
    run: TraceRun,
    seq: number,
    parent: SpanParent,
    startTime: number,
    readonly model: string,
    /** How many contents were sent. */
    readonly contents: number,
    /** How many tools were offered. */
    readonly tools: number,
  ) {
    super(run, seq, parent.span, parent.branch, startTime);
  }

  get kind() {
    return 'model' as const;
  }

  get name(): string {
    return `chat ${this.model}`;
  }

  /** Takes what the span says of the answer from its event (kept as values, not the event). */
  answered(event: Event): void {
    this.eventId = event.id;
    this.responseModel = event.modelVersion;
    this.inputTokens = event.usageMetadata?.promptTokenCount;
    this.outputTokens = event.usageMetadata?.candidatesTokenCount;
    const trellis = event.customMetadata?.trellis as { timing?: ModelTiming } | undefined;
    this.firstTokenMs = trellis?.timing?.firstTokenMs;
    this.finishReason = event.errorCode ?? (hasFunctionCall(event) ? 'tool_calls' : 'stop');
  }

  attributes(): Attributes {
    const attributes: Attributes = {
      'gen_ai.request.model': this.model,
      'trellis.contents': this.contents,
      'trellis.tools': this.tools,
    };
    if (this.eventId === undefined) return attributes;
    attributes['trellis.event_id'] = this.eventId;
    if (this.responseModel) attributes['gen_ai.response.model'] = this.responseModel;
    if (this.inputTokens !== undefined) attributes['gen_ai.usage.input_tokens'] = this.inputTokens;
    if (this.outputTokens !== undefined)
      attributes['gen_ai.usage.output_tokens'] = this.outputTokens;
    if (this.firstTokenMs !== undefined)
      attributes['trellis.time_to_first_token_ms'] = this.firstTokenMs;
    attributes['gen_ai.response.finish_reasons'] = [this.finishReason!];
    return attributes;
  }
}

function hasFunctionCall(event: Event): boolean {
  const parts = event.content?.parts;
  if (parts) for (const part of parts) if (part.functionCall) return true;
  return false;
}

/** One tool call: its arguments, and (`answered`) the size of its result. */
export class ToolSpan extends OpenSpan {
  /** The length of the function response as JSON (0: none). */
  resultBytes = 0;
  /** The call waits for a human's approval instead of running. */
  approvalRequested = false;

  constructor(
    run: TraceRun,
    seq: number,
    parent: SpanParent,
    startTime: number,
    readonly toolName: string,
    readonly callId: string | undefined,
    /** The arguments as JSON, cut short. */
    readonly args: string,
  ) {
    super(run, seq, parent.span, parent.branch, startTime);
  }

  get kind() {
    return 'tool' as const;
  }

  get name(): string {
    return `execute_tool ${this.toolName}`;
  }

  attributes(): Attributes {
    const attributes: Attributes = { 'gen_ai.tool.name': this.toolName };
    if (this.callId) attributes['gen_ai.tool.call.id'] = this.callId;
    attributes['trellis.tool.arguments'] = this.args;
    attributes['trellis.tool.result_bytes'] = this.resultBytes;
    if (this.approvalRequested) attributes['trellis.tool.outcome'] = 'approval requested';
    return attributes;
  }
}

/**
 * A wait for a human, from the event that asked (call `callId`) to the answer. Its id comes from
 * the call id, so its open and its closed copy are one span, whichever run writes them.
 */
export class WaitSpan extends OpenSpan {
  constructor(
    run: TraceRun,
    seq: number,
    branch: string | undefined,
    startTime: number,
    readonly label: string,
    readonly callId: string,
    readonly eventId: string,
  ) {
    super(run, seq, rootSpanIdOf(run.invocationId), branch, startTime);
  }

  get kind() {
    return 'wait' as const;
  }

  get name(): string {
    return this.label;
  }

  override get spanId(): string {
    return spanIdOf(this.callId);
  }

  attributes(): Attributes {
    return { 'gen_ai.tool.call.id': this.callId, 'trellis.event_id': this.eventId };
  }
}

/** The span as stores and exports read it: ids in hex, name and attributes spelled out. */
export function spanRecordOf(span: OpenSpan): SpanRecord {
  const { run, parent, endTime, error, branch } = span;
  const record: SpanRecord = {
    appName: run.appName,
    userId: run.userId,
    sessionId: run.sessionId,
    invocationId: run.invocationId,
    traceId: run.traceId,
    spanId: span.spanId,
    kind: span.kind,
    name: span.name,
    startTime: span.startTime,
    status: error === undefined ? 'ok' : 'error',
    attributes: span.attributes(),
  };
  if (parent !== undefined)
    record.parentSpanId = typeof parent === 'string' ? parent : parent.spanId;
  if (endTime !== undefined) record.endTime = endTime;
  if (error !== undefined) record.error = error;
  if (branch) record.branch = branch;
  return record;
}

/** Where a run's spans go as they end (each trace service has its own, see trace-service.ts). */
export interface SpanSink {
  add(span: OpenSpan): void;
  /** Resolves once every span added so far was written or dropped; nothing: already kept. */
  flush(): Promise<void> | undefined;
}
