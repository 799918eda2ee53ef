// ADK 2.0's AgentControlledContextCompactor: compacts when the model asked for it with the
// `consolidate_context` tool (consolidate-context-tool.ts): what came before its latest call of
// that tool is summarised, with the detail it gave as the summariser's focus.
//
// The request lives in `temp:` state, which only the invocation's working copy of the session
// holds: the compactor clears it there (as ADK), whether it compacts, finds nothing to compact
// or fails. Unlike ADK's, a summariser that fails is not only logged: the invocation ends with
// a ContextCompactionError (see compact-context.ts), and nothing is compacted.

import { COMPACTION_AUTHOR, isCompactionEvent } from '../core/compaction.ts';
import { createEvent, type Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import {
  ContextCompactionTrigger,
  type BaseContextCompactor,
  type BaseSummarizer,
} from './base-context-compactor.ts';
import { compactionEvent, compactorView } from './compaction-utils.ts';
import {
  CONSOLIDATE_CONTEXT_DETAIL_KEY,
  CONSOLIDATE_CONTEXT_KEY,
  CONSOLIDATE_CONTEXT_TOOL,
} from './consolidate-context-tool.ts';

export interface AgentControlledContextCompactorOptions {
  summarizer: BaseSummarizer;
}

export class AgentControlledContextCompactor implements BaseContextCompactor {
  readonly trigger = ContextCompactionTrigger.AgentControlled;
  readonly summarizer: BaseSummarizer;

  constructor(options: AgentControlledContextCompactorOptions) {
    this.summarizer = options.summarizer;
  }

  shouldCompact(ctx: InvocationContext): boolean {
    return ctx.session.state[CONSOLIDATE_CONTEXT_KEY] === true;
  }

  async compact(ctx: InvocationContext): Promise<Event | undefined> {
    const state = ctx.session.state;
    try {
      const view = compactorView(ctx);
      const callAt = view.context.findLastIndex((event) =>
        event.content?.parts.some((part) => part.functionCall?.name === CONSOLIDATE_CONTEXT_TOOL),
      );
      const covered = view.context.slice(0, Math.max(0, callAt));
      if (!covered.some((event) => !isCompactionEvent(event))) return undefined;
      const detail = state[CONSOLIDATE_CONTEXT_DETAIL_KEY];
      const summarised = detail
        ? [
            ...covered,
            createEvent({
              invocationId: ctx.invocationId,
              author: COMPACTION_AUTHOR,
              timestamp: covered[covered.length - 1]!.timestamp,
              content: {
                role: 'user',
                parts: [
                  {
                    text: `CRITICAL INSTRUCTION FOR SUMMARY: Please summarize the history. Focus especially on: ${String(detail)}`,
                  },
                ],
              },
            }),
          ]
        : covered;
      const signal = ctx.runConfig.signal;
      const summary = await this.summarizer.summarize(summarised, signal ? { signal } : {});
      return compactionEvent(ctx, view, covered, summary);
    } finally {
      delete state[CONSOLIDATE_CONTEXT_KEY];
      delete state[CONSOLIDATE_CONTEXT_DETAIL_KEY];
    }
  }
}
