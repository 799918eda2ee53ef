// Running the function calls of a model response and answering them in one event.

import type { FunctionCall, Part } from '../core/content.ts';
import { ToolError, messageOf } from '../core/errors.ts';
import {
  createEventActions,
  type Event,
  type EventActions,
  type ToolConfirmation,
} from '../core/event.ts';
import { setOwn } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { ToolContext } from '../tools/tool-context.ts';
import {
  CONFIRMATION_REQUIRED,
  confirmationRequestEvent,
  rejectionMessage,
} from './confirmation.ts';

interface CallOutcome {
  /** The function response part; none for a long-running tool that has nothing to say yet. */
  part?: Part;
  actions: EventActions;
  error?: ToolError;
}

export interface FunctionCallsResult {
  /** The event answering the calls (parts in call order), if any call was answered. */
  event?: Event;
  /** Asks a human to confirm the calls whose tools require it; the agent then pauses. */
  confirmationRequest?: Event;
  /** The first tool that threw, if any: the invocation must end with an error. */
  error?: ToolError;
}

/**
 * Runs the calls concurrently and answers them in one event, parts in call order and actions
 * merged. A call to an unknown tool, or with arguments that do not fit the tool's schema, is
 * answered with an error the model can act on; the tool does not run. A tool that throws is
 * answered with its error too (so the log never holds an unanswered call), and reported in
 * `error` so that the invocation ends. A tool failing because the store failed (a full disk
 * under `saveArtifact`, say) is the exception: that failure is thrown as it is, no call is
 * answered, and the run is interrupted, to be resumed (running those calls again) later.
 */
export async function runFunctionCalls(
  ctx: InvocationContext,
  calls: readonly FunctionCall[],
  tools: ReadonlyMap<string, BaseTool>,
  /** Call id → the human's answer, for calls that were paused for confirmation. */
  confirmations: ReadonlyMap<string, ToolConfirmation> = new Map(),
): Promise<FunctionCallsResult> {
  const outcomes = await Promise.all(
    calls.map((call) => tracedCall(ctx, call, tools, confirmations.get(call.id!))),
  );
  const parts = outcomes.flatMap((outcome) => (outcome.part ? [outcome.part] : []));
  const error = outcomes.find((outcome) => outcome.error)?.error;
  if (parts.length === 0) return error ? { error } : {};
  const actions = mergeActions(outcomes.map((outcome) => outcome.actions));
  const event = ctx.createEvent({ content: { role: 'user', parts }, actions });
  const confirmationRequest = confirmationRequestEvent(
    ctx,
    calls,
    actions.requestedToolConfirmations,
  );
  return {
    event,
    ...(confirmationRequest ? { confirmationRequest } : {}),
    ...(error ? { error } : {}),
  };
}

/** A call, in a span of its own: its arguments, what it answered, how long it took. */
async function tracedCall(
  ctx: InvocationContext,
  call: FunctionCall,
  tools: ReadonlyMap<string, BaseTool>,
  confirmation: ToolConfirmation | undefined,
): Promise<CallOutcome> {
  const tracer = ctx.tracer;
  if (!tracer) return runCall(ctx, call, tools, confirmation);
  const span = tracer.tool(ctx, call, clipped(JSON.stringify(call.args ?? {})));
  let outcome: CallOutcome | undefined;
  let thrown: unknown;
  try {
    outcome = await runCall(ctx, call, tools, confirmation);
    return outcome;
  } catch (error) {
    thrown = error;
    throw error;
  } finally {
    const response = outcome?.part?.functionResponse?.response;
    const asked = outcome?.actions.requestedToolConfirmations !== undefined;
    span.resultBytes = response === undefined ? 0 : JSON.stringify(response).length;
    span.approvalRequested = asked;
    const failed =
      thrown !== undefined && !ctx.isCancellation(thrown)
        ? messageOf(thrown)
        : !asked && typeof response?.error === 'string'
          ? response.error
          : undefined;
    tracer.end(span, failed);
  }
}

/** A value for a span's attribute, cut short (arguments can be long). */
function clipped(text: string): string {
  return text.length > 1000 ? `${text.slice(0, 999)}…` : text;
}

async function runCall(
  ctx: InvocationContext,
  call: FunctionCall,
  tools: ReadonlyMap<string, BaseTool>,
  confirmation: ToolConfirmation | undefined,
): Promise<CallOutcome> {
  const actions = createEventActions();
  const respond = (response: Record<string, unknown>): CallOutcome => ({
    part: { functionResponse: { id: call.id, name: call.name, response } },
    actions,
  });
  const tool = tools.get(call.name);
  if (!tool) {
    const available = [...tools.keys()].join(', ') || 'none';
    return respond({ error: `Tool '${call.name}' not found. Available tools: ${available}.` });
  }
  const args = call.args ?? {};
  const problems = tool.validateArgs(args);
  if (problems.length > 0) {
    return respond({ error: `Invalid arguments for tool '${call.name}': ${problems.join('; ')}.` });
  }
  try {
    if (await tool.needsConfirmation(args)) {
      if (!confirmation) {
        const hint = tool.confirmationHint(args);
        actions.requestedToolConfirmations = {
          [call.id!]: { confirmed: false, ...(hint ? { hint } : {}) },
        };
        return respond({ error: CONFIRMATION_REQUIRED });
      }
      if (!confirmation.confirmed) return respond({ error: rejectionMessage(confirmation) });
    }
    const toolContext = new ToolContext(ctx, call.id!, actions, confirmation);
    const result = await tool.runAsync(structuredClone(args), toolContext);
    if (tool.isLongRunning && (result === undefined || result === null)) return { actions };
    return respond(toResponse(result));
  } catch (thrown) {
    if (ctx.isCancellation(thrown)) throw thrown;
    const storage = storageFailureOf(thrown);
    if (storage) throw storage;
    const error = new ToolError(call.name, messageOf(thrown), { cause: thrown });
    return { ...respond({ error: error.message }), error };
  }
}

/**
 * The store's failures (nothing of the write that failed was saved, see store/connection.ts), and
 * a tool server that could not be reached (the call was never made).
 */
const STORAGE_FAILURES = new Set(['StorageError', 'StorageFullError', 'McpServerUnreachableError']);

/**
 * The storage (or tool server) failure behind a tool's error (itself or a cause), if any. It is
 * not the tool's failure to report to the model: the call goes unanswered, the run is interrupted
 * (resumable) under the failure's own name, and resuming runs the call again once it can.
 */
function storageFailureOf(thrown: unknown): Error | undefined {
  let error = thrown;
  for (let depth = 0; depth < 5 && error instanceof Object; depth++) {
    if (STORAGE_FAILURES.has((error as Error).name)) return error as Error;
    error = (error as { cause?: unknown }).cause;
  }
  return undefined;
}

/** A tool's result as a function response: an object as it is (JSON-safe), anything else wrapped. */
function toResponse(result: unknown): Record<string, unknown> {
  const json =
    result === undefined ? null : (JSON.parse(JSON.stringify(result) ?? 'null') as unknown);
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    return json as Record<string, unknown>;
  }
  return { result: json };
}

/** ADK's merge: deltas combined, later calls winning on the same key and on single values. */
function mergeActions(all: readonly EventActions[]): EventActions {
  const merged = createEventActions();
  for (const actions of all) {
    const { stateDelta, artifactDelta, requestedToolConfirmations, ...rest } = actions;
    // Own keys, as defined (Object.assign would call the `__proto__` setter for that key).
    for (const [key, value] of Object.entries(stateDelta)) setOwn(merged.stateDelta, key, value);
    for (const [name, version] of Object.entries(artifactDelta))
      setOwn(merged.artifactDelta, name, version);
    if (requestedToolConfirmations) {
      merged.requestedToolConfirmations = {
        ...merged.requestedToolConfirmations,
        ...requestedToolConfirmations,
      };
    }
    for (const [key, value] of Object.entries(rest)) {
      if (value !== undefined && value !== false)
        (merged as unknown as Record<string, unknown>)[key] = value;
    }
  }
  return merged;
}
