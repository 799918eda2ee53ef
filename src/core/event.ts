// Event and EventActions: the unit of a session's append-only log (ADK's camelCase wire format).

import { type Content, functionCallsOf, functionResponsesOf } from './content.ts';
import { newEventId } from './ids.ts';

/** A human's answer to a tool that asked for confirmation (ADK's ToolConfirmation). */
export interface ToolConfirmation {
  hint?: string;
  confirmed: boolean;
  payload?: unknown;
}

export interface EventActions {
  /** Keys to set; a `null` value removes the key. */
  stateDelta: Record<string, unknown>;
  /** Artifact file name → the version this event wrote. */
  artifactDelta: Record<string, number>;
  transferToAgent?: string;
  escalate?: boolean;
  skipSummarization?: boolean;
  /** Function call id → the confirmation a tool asked for. */
  requestedToolConfirmations?: Record<string, ToolConfirmation>;
  /** A workflow agent's checkpoint (keys in snake_case, as ADK writes them). */
  agentState?: Record<string, unknown>;
  endOfAgent?: boolean;
  /**
   * Set on a rewind marker: the invocation the session was rewound to before (the active
   * conversation ends just before its first event).
   */
  rewindBeforeInvocationId?: string;
  /**
   * Set on a rewind marker instead of `rewindBeforeInvocationId`: the event the session was
   * rewound to just after (it stays active; what was active after it is dropped), so that a run
   * can go back to a checkpoint inside an invocation and resume from there.
   */
  rewindAfterEventId?: string;
  /**
   * Set on a context compaction (ADK's `EventCompaction`, see core/compaction.ts): from now on
   * the model sees `compactedContent` in place of the events it covers. The log keeps them.
   */
  compaction?: EventCompaction;
}

/**
 * What a compaction event stands for (ADK Python's `actions.compaction`, in milliseconds like
 * every Trellis timestamp; seconds in a session file).
 */
export interface EventCompaction {
  /** The time of the first and last event covered. */
  startTimestamp: number;
  endTimestamp: number;
  /** The summary the model sees instead (no parts: the events were dropped, not summarised). */
  compactedContent: Content;
  /**
   * Trellis's own: the ids of the first and last event covered. Timestamps are milliseconds, and
   * a fast model or tool writes several events in one, so a timestamp alone cannot say where
   * the covered events end; a compaction without ids (ADK Python's) falls back to them.
   */
  startEventId?: string;
  endEventId?: string;
}

export interface UsageMetadata {
  promptTokenCount?: number;
  candidatesTokenCount?: number;
  totalTokenCount?: number;
}

export interface Event {
  id: string;
  invocationId: string;
  /** `'user'` or the name of the agent that wrote it. */
  author: string;
  /** Milliseconds since the epoch. */
  timestamp: number;
  content?: Content;
  actions: EventActions;
  /** Dot-separated path of the ParallelAgent branch that wrote it (`parent.child`). */
  branch?: string;
  /** A streaming chunk: shown live, never stored. */
  partial?: boolean;
  turnComplete?: boolean;
  /** Ids of function calls whose tools run on after this event (the invocation pauses). */
  longRunningToolIds?: string[];
  errorCode?: string;
  errorMessage?: string;
  /**
   * ADK's flag for an answer the model did not finish: Stop, or a failure mid-answer, cut it
   * short. Trellis stores such an answer (the text so far) and says why in
   * `customMetadata.trellis` (see core/cut-answer.ts).
   */
  interrupted?: boolean;
  usageMetadata?: UsageMetadata;
  /** The model that wrote a model event, as its provider named it (ADK's `modelVersion`). */
  modelVersion?: string;
  /**
   * Free-form metadata (ADK's `custom_metadata`). Trellis's own goes under `trellis`: a model
   * event's timing (ModelTiming) and notice (modelNoticeOf), why an answer was cut short
   * (core/cut-answer.ts) and, in a session file, the bytes of the artifact versions the event
   * names (see core/artifact-payloads).
   */
  customMetadata?: Record<string, unknown>;
  /** A workflow node's output (ADK 2.0): what the nodes after it take as input. */
  output?: unknown;
  /** Which workflow node wrote it (ADK 2.0's `nodeInfo`). */
  nodeInfo?: NodeInfo;
  /** The route a workflow node chose with this output (ADK 2.0's `route`). */
  route?: boolean | number | string | (boolean | number | string)[];
}

/** Where in a workflow an event comes from (ADK 2.0's `NodeInfo`). */
export interface NodeInfo {
  /** Dotted path of workflow and node names: `triage_flow.billing`. */
  path: string;
  /** The paths whose output the event's `output` is: its node's, and an ancestor's it stands for. */
  outputFor?: string[];
}

/** How long a model answer took (milliseconds), kept in `customMetadata.trellis.timing`. */
export interface ModelTiming {
  /** From the request to the first token of the answer (text or call). */
  firstTokenMs: number;
  /** From the request to the whole answer. */
  totalMs: number;
}

/** The timing of a model event, if it has one. */
export function modelTimingOf(event: Event): ModelTiming | undefined {
  const trellis = event.customMetadata?.trellis as { timing?: ModelTiming } | undefined;
  const timing = trellis?.timing;
  return timing && typeof timing.totalMs === 'number' && typeof timing.firstTokenMs === 'number'
    ? timing
    : undefined;
}

/** What a model said of how it made its answer (LlmResponse's `notice`), if anything. */
export function modelNoticeOf(event: Event): string | undefined {
  const trellis = event.customMetadata?.trellis as { notice?: unknown } | undefined;
  return typeof trellis?.notice === 'string' ? trellis.notice : undefined;
}

export function createEventActions(init: Partial<EventActions> = {}): EventActions {
  return { ...init, stateDelta: { ...init.stateDelta }, artifactDelta: { ...init.artifactDelta } };
}

export type EventInit = Partial<Omit<Event, 'actions'>> &
  Pick<Event, 'invocationId' | 'author'> & { actions?: Partial<EventActions> };

/** A new event with a fresh id and the current time, unless given. */
export function createEvent(init: EventInit): Event {
  const { actions, ...rest } = init;
  return {
    id: newEventId(),
    timestamp: Date.now(),
    ...rest,
    actions: createEventActions(actions),
  };
}

/**
 * ADK's `isFinalResponse`: the event ends its agent's turn (no pending tool calls or responses,
 * not a streaming chunk), or the tool asked to skip summarization, or a long-running tool pauses.
 */
export function isFinalResponse(event: Event): boolean {
  if (event.actions.skipSummarization || (event.longRunningToolIds?.length ?? 0) > 0) return true;
  return (
    functionCallsOf(event.content).length === 0 &&
    functionResponsesOf(event.content).length === 0 &&
    !event.partial
  );
}

/** Where a rewind marker takes the conversation back to. */
export type RewindTarget =
  { type: 'beforeInvocation'; invocationId: string } | { type: 'afterEvent'; eventId: string };

/** The target of a rewind marker, or `undefined` for any other event. */
export function rewindTargetOf(event: Event): RewindTarget | undefined {
  const { rewindBeforeInvocationId, rewindAfterEventId } = event.actions;
  // A marker names one target; should one name both, the older kind wins, everywhere alike.
  if (rewindBeforeInvocationId !== undefined)
    return { type: 'beforeInvocation', invocationId: rewindBeforeInvocationId };
  if (rewindAfterEventId !== undefined) return { type: 'afterEvent', eventId: rewindAfterEventId };
  return undefined;
}

/** True for a rewind marker event, of either kind. */
export function isRewindMarker(event: Event): boolean {
  return rewindTargetOf(event) !== undefined;
}

/** The latest event holding a function call with this id. */
export function findCallEvent(events: readonly Event[], callId: string): Event | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.content?.parts.some((part) => part.functionCall?.id === callId)) return event;
  }
  return undefined;
}
