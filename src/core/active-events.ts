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
import { LogPrefix } from './log-prefix.ts';

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
  return activeEventsOf(log, log.length);
}

/** The active events of the first `length` events of `log`. */
function activeEventsOf(log: readonly Event[], length: number): Event[] {
  let positions: LogPositions | undefined; // built at the first marker: most logs have none
  const kept: Event[] = [];
  let i = length - 1;
  while (i >= 0) {
    const event = log[i]!;
    const target = rewindTargetOf(event);
    if (target === undefined) {
      kept.push(event);
      i--;
      continue;
    }
    positions ??= logPositions(log, length);
    i = indexAfterMarker(target, indexOfTarget(target, positions), i);
  }
  return kept.reverse();
}

/** The positions of every invocation and event of a log (of its first `length` events). */
export function logPositions(log: readonly Event[], length = log.length): LogPositions {
  const firstIndex = new Map<string, number>();
  const eventIndex = new Map<string, number>();
  for (let i = 0; i < length; i++) {
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
 * A log the memo reads: an array (read at its length of the moment: it may grow), or a prefix of
 * one (see log-prefix.ts: a snapshot that shares a session's array instead of copying it).
 */
export type GrowingLog = readonly Event[] | LogPrefix;

/**
 * A memo of `activeEvents` over a log that only grows (a live session), kept up to date
 * incrementally: an ordinary event appended to the log is appended to the active events in
 * place; a marker (or a log that is not an extension of the one seen so far) recomputes them
 * and bumps `generation`, so that what is derived from the active events knows to start over.
 *
 * Invariants:
 * - `active` is `activeEvents` of the log's first `seen` events, and `lastSeen` is the last
 *   of them;
 * - an array returned by `get` never changes afterwards: the next append copies it first
 *   (copy on write). `peek` does not copy, so what it returns is only valid until the log grows.
 */
export class ActiveEventsView {
  /** Changes whenever the active events change other than by events added at the end. */
  generation = 0;
  private log: GrowingLog;
  private seen = 0;
  private lastSeen: Event | undefined;
  private active: Event[] = [];
  /** Whether `get` has handed out `active` since it last changed. */
  private handedOut = false;
  /**
   * What callers derive from the active events and keep up to date with them (a model's
   * contents), by name; each entry checks `generation` itself. It moves with the memo.
   */
  derived = new Map<string, unknown>();

  constructor(log: GrowingLog) {
    this.log = log;
  }

  /** The active events; the array never changes afterwards. */
  get(): readonly Event[] {
    this.sync();
    this.handedOut = true;
    return this.active;
  }

  /**
   * The active events, without a copy: read them now, do not keep them (the array grows with
   * the log).
   */
  peek(): readonly Event[] {
    this.sync();
    return this.active;
  }

  /**
   * Follows another log holding the same events (a new working copy of the session, or the same
   * one grown): the memo carries over if `log` extends what was seen, else it starts over. Two
   * logs that hold the same event object at the same index agree up to it (a log only grows;
   * a fork's log is the active events of its source, themselves in log order).
   */
  follow(log: GrowingLog): void {
    this.log = log;
  }

  /**
   * A new view that takes over this one's memo (and `derived`), for another owner: this one
   * starts over from its log, so the two never share an array that grows.
   */
  handOver(): ActiveEventsView {
    this.sync();
    const next = new ActiveEventsView(this.log);
    next.generation = this.generation;
    next.seen = this.seen;
    next.lastSeen = this.lastSeen;
    next.active = this.active;
    next.handedOut = this.handedOut;
    next.derived = this.derived;
    this.seen = 0;
    this.lastSeen = undefined;
    this.active = [];
    this.handedOut = false;
    this.derived = new Map();
    this.generation++;
    return next;
  }

  /** The last event of the log seen so far. */
  get lastEvent(): Event | undefined {
    return this.lastSeen;
  }

  private sync(): void {
    const { length } = this.log;
    const log = eventsOf(this.log);
    if (this.seen === length && log[this.seen - 1] === this.lastSeen) return;
    if (this.seen > length || (this.seen > 0 && log[this.seen - 1] !== this.lastSeen)) {
      this.recompute();
      return;
    }
    for (let i = this.seen; i < length; i++) {
      const event = log[i]!;
      if (isRewindMarker(event)) {
        this.recompute();
        return;
      }
      if (this.handedOut) {
        this.active = this.active.slice();
        this.handedOut = false;
      }
      this.active.push(event);
    }
    this.seen = length;
    this.lastSeen = log[length - 1];
  }

  private recompute(): void {
    const { length } = this.log;
    const log = eventsOf(this.log);
    this.active = activeEventsOf(log, length);
    this.handedOut = false;
    this.seen = length;
    this.lastSeen = log[length - 1];
    this.generation++;
  }
}

/** The array a log's events are read from (only its first `log.length` of them). */
function eventsOf(log: GrowingLog): readonly Event[] {
  return log instanceof LogPrefix ? log.events : log;
}

/**
 * Views kept between invocations, each under the last event it has seen: the next invocation on
 * the same log carries on from there instead of walking the whole log again. A view is taken out
 * while an invocation uses it, so two invocations never share one. Weak keys: a view lives as
 * long as its session's events do.
 */
const keptViews = new WeakMap<Event, ActiveEventsView>();

/** The active-events view of `log`: the one kept for it, if any, else a new one. */
export function takeActiveEventsView(log: GrowingLog): ActiveEventsView {
  const last = log.length > 0 ? eventsOf(log)[log.length - 1] : undefined;
  const kept = last && keptViews.get(last);
  if (!kept) return new ActiveEventsView(log);
  keptViews.delete(last);
  kept.follow(log);
  return kept;
}

/**
 * Keeps what `view` knows for the next invocation on its log (see `takeActiveEventsView`);
 * `view` itself starts over, so whoever still holds it shares nothing with the next owner.
 */
export function keepActiveEventsView(view: ActiveEventsView): void {
  const kept = view.handOver();
  // Not the old working copy of the log: the next owner brings its own (see `follow`).
  kept.follow(LogPrefix.EMPTY);
  if (kept.lastEvent) keptViews.set(kept.lastEvent, kept);
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
