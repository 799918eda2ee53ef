// ADK 2.0's TokenBasedContextCompactor: once the context passes a number of tokens, the events
// before the last few are summarised, the latest summary with them.

import { isCompactionEvent } from '../core/compaction.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseContextCompactor, BaseSummarizer } from './base-context-compactor.ts';
import {
  compactionEvent,
  compactorView,
  retainStartIndex,
  type CompactorView,
} from './compaction-utils.ts';
import { checkCount } from './options.ts';
import { contextTokensOf } from './token-count.ts';

export interface TokenBasedContextCompactorOptions {
  /** Compacts when the context holds more tokens than this (see token-count.ts). */
  tokenThreshold: number;
  /** How many of the latest events stay as they are (more, not to split a call from its answer). */
  eventRetentionSize: number;
  summarizer: BaseSummarizer;
}

export class TokenBasedContextCompactor implements BaseContextCompactor {
  readonly tokenThreshold: number;
  readonly eventRetentionSize: number;
  readonly summarizer: BaseSummarizer;

  constructor(options: TokenBasedContextCompactorOptions) {
    this.tokenThreshold = checkCount('tokenThreshold', options.tokenThreshold);
    this.eventRetentionSize = checkCount('eventRetentionSize', options.eventRetentionSize);
    this.summarizer = options.summarizer;
  }

  shouldCompact(ctx: InvocationContext): boolean {
    const view = compactorView(ctx);
    if (this.toCompact(view).length === 0) return false;
    const tokens = contextTokensOf(ctx.activeView, view.context, ctx.agent.name, ctx.branch);
    return tokens > this.tokenThreshold;
  }

  async compact(ctx: InvocationContext): Promise<Event | undefined> {
    const view = compactorView(ctx);
    const raw = this.toCompact(view);
    if (raw.length === 0) return undefined;
    const previous = view.context.find(isCompactionEvent);
    const covered = previous ? [previous, ...raw] : raw;
    const signal = ctx.runConfig.signal;
    const summary = await this.summarizer.summarize(covered, signal ? { signal } : {});
    return compactionEvent(ctx, view, covered, summary);
  }

  /** The events to summarise: all but the retained ones, none when that leaves nothing. */
  private toCompact(view: CompactorView): readonly Event[] {
    if (view.raw.length <= this.eventRetentionSize) return [];
    return view.raw.slice(0, retainStartIndex(view.raw, this.eventRetentionSize));
  }
}
