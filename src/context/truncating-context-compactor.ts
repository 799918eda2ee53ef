// ADK 2.0's TruncatingContextCompactor: past a number of events, the oldest (after the first few
// kept) are dropped from what the model sees, without a summary. ADK splices them out of the
// session; Trellis writes a compaction event with an empty summary, so the log keeps them and a
// rewind to before it brings them back. Like ADK's, it may drop a call and keep its response:
// the contents leave out a response without its call (agents/contents.ts).

import { isCompactionEvent } from '../core/compaction.ts';
import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { BaseContextCompactor } from './base-context-compactor.ts';
import { compactionEvent, compactorView } from './compaction-utils.ts';
import { checkCount } from './options.ts';

export interface TruncatingContextCompactorOptions {
  /** How many events the model sees at most, besides the preserved leading ones. */
  threshold: number;
  /** How many of the first events always stay (default 0). */
  preserveLeadingEvents?: number;
}

export class TruncatingContextCompactor implements BaseContextCompactor {
  readonly threshold: number;
  readonly preserveLeadingEvents: number;

  constructor(options: TruncatingContextCompactorOptions) {
    this.threshold = checkCount('threshold', options.threshold);
    this.preserveLeadingEvents = checkCount(
      'preserveLeadingEvents',
      options.preserveLeadingEvents ?? 0,
    );
  }

  shouldCompact(ctx: InvocationContext): boolean {
    return compactorView(ctx).raw.length > this.threshold + this.preserveLeadingEvents;
  }

  compact(ctx: InvocationContext): Event | undefined {
    const view = compactorView(ctx);
    const excess = view.raw.length - this.threshold - this.preserveLeadingEvents;
    if (excess <= 0) return undefined;
    const dropped = view.raw.slice(this.preserveLeadingEvents, this.preserveLeadingEvents + excess);
    const previous = view.context.find(isCompactionEvent);
    const covered = previous ? [previous, ...dropped] : dropped;
    return compactionEvent(ctx, view, covered, { role: 'model', parts: [] });
  }
}
