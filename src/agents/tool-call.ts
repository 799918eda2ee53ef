// One call of a tool and what answers it: its arguments checked, a human's confirmation asked or
// read, the tool run, and its result or failure made a function response.

import type { FunctionCall, Part } from '../core/content.ts';
import { ToolError, messageOf } from '../core/errors.ts';
import type { EventActions, ToolConfirmation } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { ToolContext } from '../tools/tool-context.ts';
import { CONFIRMATION_REQUIRED, rejectionMessage } from './confirmation.ts';
import { NO_ANSWER_YET } from './tool-events.ts';

export interface CallOutcome {
  /** The function response part; none for a long-running tool that has nothing to say yet. */
  part?: Part;
  actions: EventActions;
  error?: ToolError;
}

/** The outcome of answering `call` with `response`. */
export function answered(
  call: FunctionCall,
  actions: EventActions,
  response: Record<string, unknown>,
): CallOutcome {
  return { part: { functionResponse: { id: call.id, name: call.name, response } }, actions };
}

/**
 * Calls `tool` with `args`: arguments that do not fit its schema are answered with an error the
 * model can act on; a tool that requires confirmation asks a human first (`actions` then carry
 * the request) and runs once they said yes; a tool that throws is answered with its error, which
 * comes back in `error` too. A storage failure, or the run's cancellation, is thrown as it is.
 * The tool runs with `toolContext`, or a new one over `actions`, on `args`, which must be the
 * call's own copy (the tool may change it; the stored call must not change).
 */
export async function callTool(
  ctx: InvocationContext,
  call: FunctionCall,
  tool: BaseTool,
  args: Record<string, unknown>,
  actions: EventActions,
  confirmation: ToolConfirmation | undefined,
  toolContext: ToolContext | undefined,
): Promise<CallOutcome> {
  const respond = (response: Record<string, unknown>) => answered(call, actions, response);
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
    const context = toolContext ?? new ToolContext(ctx, call.id!, actions, confirmation);
    const result = await tool.runAsync(args, context);
    if (result === NO_ANSWER_YET) return { actions };
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
export function toResponse(result: unknown): Record<string, unknown> {
  const json =
    result === undefined ? null : (JSON.parse(JSON.stringify(result) ?? 'null') as unknown);
  if (typeof json === 'object' && json !== null && !Array.isArray(json)) {
    return json as Record<string, unknown>;
  }
  return { result: json };
}
