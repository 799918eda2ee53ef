// ADK's memory tools, over the runner's memory service (ToolContext.searchMemory):
// - LOAD_MEMORY, `load_memory`: the model calls it with a query and gets the memories' texts;
// - PRELOAD_MEMORY: never called; before each model call it searches memory for the user's
//   message and adds what it finds to the system instruction, as past conversations.
// Both read the memories' text parts only, as ADK's do, and word what they add as ADK's do, so a
// model sees the same request from either (test/unit/tools/memory-tools.test.ts).

import { InvalidRequestError } from '../core/errors.ts';
import type { MemoryEntry } from '../store/memory-service.ts';
import { BaseTool, type ToolProcessLlmRequest } from './base-tool.ts';
import type { ToolContext } from './tool-context.ts';
import { appendInstructions } from './tool-requests.ts';

/** A memory's text as the tools give it: its text parts joined by spaces (ADK's). */
function textOfMemory(memory: MemoryEntry): string {
  return (memory.content.parts ?? []).map((part) => part.text ?? '').join(' ');
}

export class LoadMemoryTool extends BaseTool {
  constructor() {
    super(
      'load_memory',
      'Loads the memory for the current user.\n\nNOTE: Currently this tool only uses text part from the memory.',
      {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'The query to load the memory for.' },
        },
        required: ['query'],
      },
    );
  }

  override async runAsync(args: Record<string, unknown>, toolContext: ToolContext) {
    if (!toolContext.invocationContext.memoryService) {
      throw new InvalidRequestError('load_memory needs a runner with a memory service');
    }
    const { memories } = await toolContext.searchMemory(String(args['query'] ?? ''));
    return {
      memories: memories.map((memory) => ({
        content: textOfMemory(memory),
        ...(memory.author === undefined ? {} : { author: memory.author }),
        ...(memory.timestamp === undefined ? {} : { timestamp: memory.timestamp }),
      })),
    };
  }

  override async processLlmRequest(request: ToolProcessLlmRequest): Promise<void> {
    await super.processLlmRequest(request);
    if (!request.toolContext.invocationContext.memoryService) return;
    appendInstructions(request.llmRequest, [
      `You have memory. You can use it to answer questions. If any questions need
you to look up the memory, you should call load_memory function with a query.`,
    ]);
  }
}

export class PreloadMemoryTool extends BaseTool {
  constructor() {
    // Neither name nor description reaches the model: this tool only changes the request.
    super('preload_memory', 'preload_memory');
  }

  override async runAsync(): Promise<never> {
    throw new InvalidRequestError('preload_memory is not for the model to call');
  }

  override async processLlmRequest({ toolContext, llmRequest }: ToolProcessLlmRequest) {
    // ADK's: the first part of the user's message is the query, and it must be text.
    const query = toolContext.invocationContext.userContent?.parts[0]?.text;
    if (!query || !toolContext.invocationContext.memoryService) return;
    let memories: MemoryEntry[];
    try {
      ({ memories } = await toolContext.searchMemory(query));
    } catch (error) {
      // As ADK's: memory that cannot be searched leaves the request as it was, and the run goes
      // on without it (the model still answers, only without what it might have recalled).
      console.warn('Trellis: preload_memory could not search memory', error);
      return;
    }
    const lines: string[] = [];
    for (const memory of memories) {
      if (memory.timestamp) lines.push(`Time: ${memory.timestamp}`);
      const text = textOfMemory(memory);
      if (text) lines.push(memory.author ? `${memory.author}: ${text}` : text);
    }
    if (lines.length === 0) return;
    appendInstructions(llmRequest, [
      `The following content is from your previous conversations with the user.
They may be useful for answering the user's current query.
<PAST_CONVERSATIONS>
${lines.join('\n')}
</PAST_CONVERSATIONS>
`,
    ]);
  }
}

/** ADK's `load_memory` tool: the model asks memory with a query. */
export const LOAD_MEMORY = new LoadMemoryTool();

/** ADK's preload: memories relevant to the user's message join the system instruction. */
export const PRELOAD_MEMORY = new PreloadMemoryTool();
