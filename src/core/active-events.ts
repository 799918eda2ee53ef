// The rewind-aware view of a session's log.
//
// The raw log is append-only; a rewind appends a marker that names either an invocation X
// (`rewindBeforeInvocationId`) or an event E (`rewindAfterEventId`). The active events of a log
// are defined recursively:
//   active([])                         = []
//   active(log + [marker → before X])  = active(log up to, not including, the first event of X)
//   active(log + [marker → after E])   = active(log up to and including E)
//   active(log + [e])                  = active(log) + [e]
// so a marker puts the conversation back exactly as it was just before X, or just after E, was
// written (nested rewinds, rewinds into a span an earlier rewind hid, and rewinds before a marker
// all follow). A marker whose target is not in the log before it hides nothing but itself.
//
// Everything that reads a conversation reads this view: the model's context, the choice of the
// agent that answers next, resume, confirmation matching and the UI.

import { isRewindMarker, rewindTargetOf, type Event, type RewindTarget } from './event.ts';

/** Where the targets of markers lie in a log: what a walk back needs at a marker. */
export interface LogPositions {
  /** Index of the first event of an invocation. */
  firstIndexOf(invocationId: string): number | undefined;
  /** Index of an event. */
  indexOfEvent(eventId: string): number | undefined;
}

/** The index of a marker's target in the log: its invocation's first event, or its event. */
export function indexOfTarget(target: RewindTarget, positions: LogPositions): number | undefined {
  return target.type === 'beforeInvocation'
    ? positions.firstIndexOf(target.invocationId)
    : positions.indexOfEvent(target.eventId);
}

/**
 * Where a walk back over the log goes on from the marker at `index`, given the index of its
 * target (`undefined`: not in the log): just before the invocation, or at the event, when that
 * lies before the marker; otherwise the marker hides nothing but itself.
 */
export function indexAfterMarker(
  target: RewindTarget,
  targetIndex: number | undefined,
  index: number,
): number {
  if (targetIndex === undefined || targetIndex >= index) return index - 1;
  return target.type === 'beforeInvocation' ? targetIndex - 1 : targetIndex;
}

/** The active events of a raw log, oldest first. O(length of the log). */
export function activeEvents(log: readonly Event[]): Event[] {
  let positions: LogPositions | undefined; // built at the first marker: most logs have none
  const kept: Event[] = [];
  let i = log.length - 1;
  while (i >= 0) {
    const event = log[i]!;
    const target = rewindTargetOf(event);
    if (target === undefined) {
      kept.push(event);
      i--;
      continue;
    }
    positions ??= logPositions(log);
    i = indexAfterMarker(target, indexOfTarget(target, positions), i);
  }
  return kept.reverse();
}

/** The positions of every invocation and event of a log, in one pass. */
export function logPositions(log: readonly Event[]): LogPositions {
  const firstIndex = new Map<string, number>();
  const eventIndex = new Map<string, number>();
  for (let i = 0; i < log.length; i++) {
    const event = log[i]!;
    if (!firstIndex.has(event.invocationId)) firstIndex.set(event.invocationId, i);
    eventIndex.set(event.id, i);
  }
  return {
    firstIndexOf: (invocationId) => firstIndex.get(invocationId),
    indexOfEvent: (eventId) => eventIndex.get(eventId),
  };
}

/** A log read one event at a time (a store's), for a walk that must not read all of it. */
export interface LogReader {
  readonly length: number;
  eventAt(index: number): Promise<Event>;
  indexOfTarget(target: RewindTarget): Promise<number | undefined>;
}

/**
 * The active events after the event at `index` (not a marker), oldest first, or `undefined`
 * when a rewind hid that event. It walks back from the end as `activeEvents` does and stops at
 * `index`, so it reads the active events after it and the markers on the way: never the log
 * before it, nor the spans that rewinds hid.
 */
export async function activeEventsAfter(
  reader: LogReader,
  index: number,
): Promise<Event[] | undefined> {
  const kept: Event[] = [];
  let i = reader.length - 1;
  while (i > index) {
    const event = await reader.eventAt(i);
    const target = rewindTargetOf(event);
    if (target === undefined) {
      kept.push(event);
      i--;
      continue;
    }
    i = indexAfterMarker(target, await reader.indexOfTarget(target), i);
  }
  return i === index ? kept.reverse() : undefined;
}

/**
 * A memo of `activeEvents` over a log that only grows (a live session): recomputed only when
 * the log has grown since the last call.
 */
export class ActiveEventsView {
  private computedFor = -1;
  private active: Event[] = [];

  constructor(private readonly log: readonly Event[]) {}

  get(): readonly Event[] {
    if (this.computedFor !== this.log.length) {
      const last = this.log[this.log.length - 1];
      if (this.computedFor === this.log.length - 1 && last && !isRewindMarker(last)) {
        // The common case: one ordinary event appended.
        this.active = [...this.active, last];
      } else {
        this.active = activeEvents(this.log);
      }
      this.computedFor = this.log.length;
    }
    return this.active;
  }
}

/**
 * The conversation as it stood right after invocation `invocationId` (the active events of the
 * log up to that invocation's last event), or `undefined` if the log has no such invocation.
 * This is what a fork at a turn copies, whether the turn is on the active path or not.
 */
export function conversationThrough(
  log: readonly Event[],
  invocationId: string,
): Event[] | undefined {
  for (let i = log.length - 1; i >= 0; i--) {
    if (log[i]!.invocationId === invocationId) return activeEvents(log.slice(0, i + 1));
  }
  return undefined;
}
