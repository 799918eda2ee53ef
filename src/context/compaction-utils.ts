// What the compactors share: the events they count, where the kept events start (never between
// a call and its response), and the compaction event they return.

import {
  COMPACTION_AUTHOR,
  contextEvents,
  coveredRange,
  isCompactionEvent,
} from '../core/compaction.ts';
import { functionCallsOf, functionResponsesOf, type Content } from '../core/content.ts';
import { createEvent, isRewindMarker, type Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

/** The context the compactors judge: ADK's active events, and those that are no compaction. */
export interface CompactorView {
  /** The active events of the session. */
  active: readonly Event[];
  /** ADK's `getActiveEvents`: the latest compaction and the events it leaves. */
  context: readonly Event[];
  /** The events of `context` other than the compaction (ADK's `rawEvents`). */
  raw: readonly Event[];
}

export function compactorView(ctx: InvocationContext): CompactorView {
  const active = ctx.activeView.peek();
  const context = contextEvents(active);
  // Rewind markers are never active; the filter is for a log given by hand.
  const raw = context.filter((event) => !isCompactionEvent(event) && !isRewindMarker(event));
  return { active, context, raw };
}

/**
 * ADK's `calculateRetainStartIndex`: keeps the last `retention` events, and moves back past a
 * response whose call would be left behind.
 */
export function retainStartIndex(raw: readonly Event[], retention: number): number {
  let start = Math.max(0, raw.length - retention);
  while (start > 0) {
    const kept = raw[start]!;
    const previous = raw[start - 1]!;
    if (
      functionResponsesOf(kept.content).length > 0 &&
      functionCallsOf(previous.content).length > 0
    ) {
      start--;
    } else break;
  }
  return start;
}

/**
 * The compaction event that stands for `covered` (events of `view.active`: raw events, and the
 * earlier compaction they go on from) with `content` as their summary. It covers the run of
 * active events from the first of them (an earlier compaction: from what that covered) to the
 * last, written by ADK's author of a compacted event.
 */
export function compactionEvent(
  ctx: InvocationContext,
  view: CompactorView,
  covered: readonly Event[],
  content: Content,
): Event {
  const index = new Map(view.active.map((event, i) => [event, i]));
  let start = Infinity;
  let end = -1;
  for (const event of covered) {
    const at = index.get(event);
    if (at === undefined) continue;
    if (isCompactionEvent(event)) {
      start = Math.min(start, coveredRange(view.active, at)?.start ?? at);
      continue;
    }
    start = Math.min(start, at);
    end = Math.max(end, at);
  }
  const first = view.active[start]!;
  const last = view.active[end]!;
  return createEvent({
    invocationId: ctx.invocationId,
    author: COMPACTION_AUTHOR,
    actions: {
      compaction: {
        startTimestamp: first.timestamp,
        endTimestamp: last.timestamp,
        compactedContent: content,
        startEventId: first.id,
        endEventId: last.id,
      },
    },
  });
}
