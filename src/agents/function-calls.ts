// Running the function calls of a model response and answering them in one event.

import type { FunctionCall } from '../core/content.ts';
import { messageOf, type ToolError } from '../core/errors.ts';
import {
  createEventActions,
  type Event,
  type EventActions,
  type ToolConfirmation,
} from '../core/event.ts';
import { setOwn } from '../core/state.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { ToolCallbacks } from './callbacks.ts';
import { confirmationRequestEvent } from './confirmation.ts';
import { answered, callTool, type CallOutcome } from './tool-call.ts';
import { callWithCallbacks } from './tool-callbacks.ts';
import { pluginsOf } from '../plugins/plugin-manager.ts';

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
  /** The calling agent's tool callbacks (see tool-callbacks.ts), if it has any. */
  own?: ToolCallbacks,
): Promise<FunctionCallsResult> {
  // The runner's plugins' tool callbacks run first (src/plugins).
  const plugins = pluginsOf(ctx);
  const callbacks = plugins ? plugins.toolCallbacks(own) : own;
  const outcomes = await Promise.all(
    calls.map((call) => tracedCall(ctx, call, tools, confirmations.get(call.id!), callbacks)),
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
  callbacks: ToolCallbacks | undefined,
): Promise<CallOutcome> {
  const tracer = ctx.tracer;
  if (!tracer) return runCall(ctx, call, tools, confirmation, callbacks);
  const span = tracer.tool(ctx, call, clipped(JSON.stringify(call.args ?? {})));
  let outcome: CallOutcome | undefined;
  let thrown: unknown;
  try {
    outcome = await runCall(ctx, call, tools, confirmation, callbacks);
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
  callbacks: ToolCallbacks | undefined,
): Promise<CallOutcome> {
  const actions = createEventActions();
  const tool = tools.get(call.name);
  if (!tool) {
    const available = [...tools.keys()].join(', ') || 'none';
    return answered(call, actions, {
      error: `Tool '${call.name}' not found. Available tools: ${available}.`,
    });
  }
  if (callbacks) return callWithCallbacks(ctx, call, tool, actions, confirmation, callbacks);
  const args = structuredClone(call.args ?? {});
  return callTool(ctx, call, tool, args, actions, confirmation, undefined);
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
