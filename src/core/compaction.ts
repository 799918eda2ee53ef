// Context compaction events (ADK 2.0's `contextCompactors`, ADK Python's `actions.compaction`):
// what the model sees of a conversation that holds some.
//
// What must stay true:
// - the log keeps every event: a compaction only changes what the model is sent, so a rewind to
//   before the compaction event (which drops it from the active events) brings the full context
//   back, and nothing else reads this view (History, resume, the agent that answers read the
//   active events);
// - only the latest compaction on the active path counts (a later one covers what an earlier one
//   did: its summary is made of the earlier summary and what followed), as ADK's
//   `getActiveEvents`;
// - a compaction hides one contiguous run of the active events, from the event it starts at to
//   the one it ends at (by id; by timestamp for a compaction from a file without ids), and the
//   model sees its summary where that run was.

import { textOf, type Content } from './content.ts';
import type { Event, EventCompaction } from './event.ts';

/** ADK TS's author of a compacted event (`LlmSummarizer` writes it), kept for the same reason. */
export const COMPACTION_AUTHOR = 'system';

/** The text ADK TS puts before a summary in the model's contents (`convertCompactedEvent`). */
export const SUMMARY_PREFIX = '[Previous Context Summary]:\n';

/** Whether an event is a context compaction. */
export function isCompactionEvent(
  event: Event,
): event is Event & { actions: { compaction: EventCompaction } } {
  return event.actions.compaction !== undefined;
}

/** The summary text of a compaction (empty when its events were dropped, not summarised). */
export function compactionText(compaction: EventCompaction): string {
  return textOf(compaction.compactedContent);
}

/** The index in `active` of its latest compaction event, or -1. */
export function latestCompactionIndex(active: readonly Event[]): number {
  for (let i = active.length - 1; i >= 0; i--) if (isCompactionEvent(active[i]!)) return i;
  return -1;
}

/**
 * The run of `active` (indices, inclusive) that the compaction at `at` covers, among the events
 * before it. An id not found (a file from elsewhere, a log edited by hand) falls back to the
 * timestamps; a compaction that covers nothing found gives `undefined`.
 */
export function coveredRange(
  active: readonly Event[],
  at: number,
): { start: number; end: number } | undefined {
  const compaction = active[at]!.actions.compaction!;
  let start = indexOfId(active, at, compaction.startEventId);
  let end = indexOfId(active, at, compaction.endEventId);
  if (start < 0) {
    start = active.findIndex(
      (event, i) =>
        i < at && !isCompactionEvent(event) && event.timestamp >= compaction.startTimestamp,
    );
  }
  if (end < 0) {
    for (let i = at - 1; i >= 0; i--) {
      const event = active[i]!;
      if (!isCompactionEvent(event) && event.timestamp <= compaction.endTimestamp) {
        end = i;
        break;
      }
    }
  }
  if (start < 0 || end < start) return undefined;
  return { start, end };
}

function indexOfId(active: readonly Event[], before: number, id: string | undefined): number {
  if (id === undefined) return -1;
  for (let i = before - 1; i >= 0; i--) if (active[i]!.id === id) return i;
  return -1;
}

/**
 * ADK's `getActiveEvents` over Trellis's active events: with no compaction, `active` itself;
 * else the events before what the latest compaction covers, the compaction, and every event
 * after what it covers that is no compaction. ADK TS keeps only events whose timestamp is after
 * the compaction's end, which also hides an event written in the same millisecond as the last
 * one covered; ids do not.
 */
export function contextEvents(active: readonly Event[]): readonly Event[] {
  const at = latestCompactionIndex(active);
  if (at < 0) return active;
  const range = coveredRange(active, at);
  const compaction = active[at]!;
  if (!range) return active.filter((event) => !isCompactionEvent(event) || event === compaction);
  const before = active.slice(0, range.start).filter((event) => !isCompactionEvent(event));
  const after = active.slice(range.end + 1).filter((event) => !isCompactionEvent(event));
  return [...before, compaction, ...after];
}

/**
 * The event the model's contents hold in place of a compaction (ADK TS's
 * `convertCompactedEvent`): the summary as the user's words, or nothing when there is none.
 */
export function summaryEvent(compaction: Event): Event | undefined {
  const text = compaction.actions.compaction && compactionText(compaction.actions.compaction);
  if (!text) return undefined;
  const content: Content = { role: 'user', parts: [{ text: SUMMARY_PREFIX + text }] };
  return {
    id: `${compaction.id}:summary`,
    invocationId: compaction.invocationId,
    author: 'user',
    timestamp: compaction.timestamp,
    content,
    actions: { stateDelta: {}, artifactDelta: {} },
    ...(compaction.branch ? { branch: compaction.branch } : {}),
  };
}

/**
 * The events the model's contents are built from: the context events with the compaction's
 * summary in its place (ADK's `getContents` input, after its conversion).
 */
export function modelEvents(active: readonly Event[]): readonly Event[] {
  const events = contextEvents(active);
  if (events === active) return active;
  return events.flatMap((event) => {
    if (!isCompactionEvent(event)) return [event];
    const summary = summaryEvent(event);
    return summary ? [summary] : [];
  });
}
