// ADK 2.0's `consolidate_context` tool: the model asks for its context to be compacted (a
// subtask is done), and the AgentControlledContextCompactor does so before its next call.

import { BaseTool } from '../tools/base-tool.ts';
import type { ToolContext } from '../tools/tool-context.ts';

/** The `temp:` state keys the tool sets and the compactor reads (and clears), ADK's names. */
export const CONSOLIDATE_CONTEXT_KEY = 'temp:consolidate_context';
export const CONSOLIDATE_CONTEXT_DETAIL_KEY = 'temp:consolidate_context_detail';

export const CONSOLIDATE_CONTEXT_TOOL = 'consolidate_context';

export class ConsolidateContextTool extends BaseTool {
  constructor() {
    super(
      CONSOLIDATE_CONTEXT_TOOL,
      'Requests context consolidation (compaction) to manage history size. Use this when a ' +
        'subtask is complete and you want to summarize progress and clear detailed history.',
      {
        type: 'object',
        properties: {
          detail: {
            type: 'string',
            description:
              'Optional description of what has been accomplished so far. This detail will be ' +
              'used to guide the summarization of the history.',
          },
        },
      },
    );
  }

  override async runAsync(
    args: Record<string, unknown>,
    toolContext: ToolContext,
  ): Promise<unknown> {
    toolContext.state.set(CONSOLIDATE_CONTEXT_KEY, true);
    if (args['detail'] !== undefined)
      toolContext.state.set(CONSOLIDATE_CONTEXT_DETAIL_KEY, args['detail']);
    return { status: 'success', message: 'Context consolidation requested.' };
  }
}
