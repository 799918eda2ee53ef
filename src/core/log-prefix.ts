// Snapshots of an append-only log that share the log's array instead of copying it.
//
// A session's log only ever grows at the end (a rewind is one more event), so the first `length`
// events of its array never change: a snapshot can be that array and a length, taken in O(1)
// however long the log is. Copies of the whole log on every turn (the session read, the
// invocation's working copy) made a turn's overhead grow with the session; these take their
// place where the library reads a session, while `session.events` stays a plain array of its
// own for whoever reads it.
//
// Invariants:
// - nobody changes the first `length` events of a prefix's array, nor reads a prefix past them;
// - an array is extended in place only by its owner: the store that keeps it (the prefix then
//   only borrows it), or, for an array a prefix copied, the prefixes of it, and only while
//   nobody has extended it past their length (so no other prefix of it sees anything new).

import type { Event } from './event.ts';

export class LogPrefix {
  private constructor(
    /** Shared with others: read its first `length` events only. */
    readonly events: readonly Event[],
    readonly length: number,
    /** Whether only prefixes read `events` (a prefix made it), so that one may extend it. */
    private readonly owned: boolean,
  ) {}

  /** The first `length` events of an array that its owner (a store) only ever appends to. */
  static of(events: readonly Event[], length = events.length): LogPrefix {
    return new LogPrefix(events, Math.min(length, events.length), false);
  }

  static readonly EMPTY = LogPrefix.of(Object.freeze([]));

  get last(): Event | undefined {
    return this.length > 0 ? this.events[this.length - 1] : undefined;
  }

  /**
   * This log with `event` after it, in amortised O(1): it shares the array when the array holds
   * `event` next already (the store appended it: the usual case of a runner's working copy), or
   * when this prefix's own array has nothing after it; otherwise (a log that went another way
   * meanwhile, or a store's array) it copies, once, and owns the copy.
   */
  plus(event: Event): LogPrefix {
    const { events, length } = this;
    if (length < events.length && events[length] === event) {
      return new LogPrefix(events, length + 1, this.owned);
    }
    if (this.owned && events.length === length) {
      (events as Event[]).push(event);
      return new LogPrefix(events, length + 1, true);
    }
    const copy = events.slice(0, length);
    copy.push(event);
    return new LogPrefix(copy, length + 1, true);
  }

  /** The events, as an array of the caller's own. O(length). */
  toArray(): Event[] {
    return this.events.slice(0, this.length);
  }
}

interface LazyEvents {
  log: LogPrefix;
  /** The array handed out as `events`, once someone read it; it then follows the log. */
  array: Event[] | undefined;
}

/** Objects whose `events` are a log prefix (see `withLogEvents`). Weak: they die with them. */
const lazyEvents = new WeakMap<object, LazyEvents>();

/**
 * Gives `holder` an enumerable `events` property holding `log`'s events: an array of its own,
 * made when first read (a copy of the log's, O(length)), so that a reader that never reads it (a
 * runner: it takes `logOf(holder)`) copies nothing. To anyone else it is an ordinary property.
 */
export function withLogEvents<T extends object>(
  holder: T,
  log: LogPrefix,
): T & { readonly events: Event[] } {
  const lazy: LazyEvents = { log, array: undefined };
  lazyEvents.set(holder, lazy);
  Object.defineProperty(holder, 'events', {
    enumerable: true,
    configurable: true,
    get: () => (lazy.array ??= lazy.log.toArray()),
    set: (events: Event[]) => {
      lazy.array = events;
      lazy.log = LogPrefix.of(events);
    },
  });
  return holder as T & { readonly events: Event[] };
}

/** The log of `holder`'s events without a copy: its prefix if it has one, else its array's. */
export function logOf(holder: { readonly events: readonly Event[] }): LogPrefix {
  const lazy = lazyEvents.get(holder);
  if (!lazy) return LogPrefix.of(holder.events);
  // Someone read the events: the array is theirs now, and may have been changed. Read it.
  return lazy.array ? LogPrefix.of(lazy.array) : lazy.log;
}

/**
 * Appends `event` to `holder`'s events (a working copy of a session's): to its log, and to the
 * array of its events if someone has read them (they keep seeing the log grow).
 */
export function appendEvent(holder: { readonly events: Event[] }, event: Event): void {
  const lazy = lazyEvents.get(holder);
  if (!lazy) {
    holder.events.push(event);
    return;
  }
  lazy.log = lazy.log.plus(event);
  lazy.array?.push(event);
}
