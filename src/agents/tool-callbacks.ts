// A tool call between an LlmAgent's tool callbacks (see callbacks.ts): before the call, on the
// tool's failure, and after its result, all with the call's ToolContext (the tool's own), so what
// they set in state goes into the call's response event.
//
// Where ADK (Python and TS alike) draws the lines, and where Trellis does:
// - before callbacks run first, on the model's arguments (a copy, the one the tool then gets and
//   the after callbacks see: they may change it, as in ADK); an answer skips the tool, its
//   arguments' check and its confirmation;
// - the error callbacks see a tool that threw (a ToolError, the tool's error as its `cause`),
//   not a storage failure or Stop; their answer is the call's result, and the after callbacks
//   see it, as ADK Python's do; with none, the error goes on;
// - after callbacks see every answer the call gets (a rejection, a bad argument's error). Unlike
//   ADK's, not a call that waits: one paused for a human's confirmation (the chat and resume read
//   its placeholder) or a long-running tool with nothing to say yet. Its answer comes later, and
//   they see that one.

import type { FunctionCall } from '../core/content.ts';
import type { EventActions, ToolConfirmation } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import { ToolContext } from '../tools/tool-context.ts';
import { firstAnswer, type ToolCallbacks } from './callbacks.ts';
import { answered, callTool, toResponse, type CallOutcome } from './tool-call.ts';

export async function callWithCallbacks(
  ctx: InvocationContext,
  call: FunctionCall,
  tool: BaseTool,
  actions: EventActions,
  confirmation: ToolConfirmation | undefined,
  callbacks: ToolCallbacks,
): Promise<CallOutcome> {
  const context = new ToolContext(ctx, call.id!, actions, confirmation);
  const args = structuredClone(call.args ?? {});
  // Awaited only when a callback answered with a promise (most answer nothing, at once).
  let given = firstAnswer(callbacks.before, { tool, args, context });
  if (given instanceof Promise) given = await given;
  let outcome = given
    ? answered(call, actions, toResponse(given))
    : await callTool(ctx, call, tool, args, actions, confirmation, context);
  if (outcome.error) {
    const standIn = await firstAnswer(callbacks.onError, {
      tool,
      args,
      context,
      error: outcome.error,
    });
    if (!standIn) return outcome;
    outcome = answered(call, actions, toResponse(standIn));
  }
  const response = outcome.part?.functionResponse?.response;
  const waits = actions.requestedToolConfirmations?.[call.id!] !== undefined;
  if (!response || waits || callbacks.after.length === 0) return outcome;
  let replaced = firstAnswer(callbacks.after, { tool, args, context, response });
  if (replaced instanceof Promise) replaced = await replaced;
  return replaced ? answered(call, actions, toResponse(replaced)) : outcome;
}
