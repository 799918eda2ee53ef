// How an agent's tools shape its model request, as ADK's do: once the request is built (the
// instructions, the conversation), each tool's processLlmRequest adds to it in the agent's order:
// its declaration by default, or an instruction (the memory tools).

import { createEventActions } from '../core/event.ts';
import type { LlmRequest } from '../models/llm.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseTool } from './base-tool.ts';
import { ToolContext } from './tool-context.ts';

/** Lets each of `tools` add to `llmRequest`, a request of the agent running in `ctx`. */
export async function processToolRequests(
  llmRequest: LlmRequest,
  tools: Iterable<BaseTool>,
  ctx: InvocationContext,
): Promise<void> {
  // No call is being answered: the context is the invocation's, with actions nobody stores.
  const toolContext = new ToolContext(ctx, '', createEventActions());
  for (const tool of tools) await tool.processLlmRequest({ toolContext, llmRequest });
}

/** Adds paragraphs to the request's system instruction (ADK's appendInstructions). */
export function appendInstructions(llmRequest: LlmRequest, instructions: readonly string[]): void {
  const added = instructions.join('\n\n');
  llmRequest.systemInstruction = llmRequest.systemInstruction
    ? `${llmRequest.systemInstruction}\n\n${added}`
    : added;
}
