// A write-through cache of the logs of the most recently used sessions, and of the last session
// record this service wrote or read for each of them (appendEvent's starting point).
//
// The log is append-only, so a cached prefix never goes stale: a reader only has to fetch what was
// appended since (by this service or by another tab). Invariants:
// - a cached log holds exactly the events with seq 0..length-1 of one incarnation of a session
//   (a session deleted and created again under the same id has a new createTime);
// - events are frozen, so handing out the same objects to every reader is safe;
// - a remembered record may be stale (another tab or service wrote since): whoever writes from it
//   must check it against the stored one in the same transaction.

import type { Event } from '../core/event.ts';
import type { SessionRecord } from './session-log.ts';

interface CachedLog {
  createTime: number;
  events: Event[];
}

const keyOf = (appName: string, userId: string, sessionId: string) =>
  JSON.stringify([appName, userId, sessionId]);

export class EventLogCache {
  private readonly logs = new Map<string, CachedLog>();
  private readonly records = new Map<string, SessionRecord>();

  constructor(
    private readonly capacity = 8,
    private readonly recordCapacity = 64,
  ) {}

  /** The last record of the session this service wrote or read, possibly stale. */
  record(appName: string, userId: string, sessionId: string): SessionRecord | undefined {
    return this.records.get(keyOf(appName, userId, sessionId));
  }

  /**
   * Remembers `record` as the session's latest, most recently used last; not one older than the
   * remembered one (a read that began before this service's last write ended after it).
   */
  private remember(key: string, record: SessionRecord): void {
    const known = this.records.get(key);
    if (known?.createTime === record.createTime && known.eventCount > record.eventCount) return;
    this.records.delete(key);
    this.records.set(key, record);
    if (this.records.size > this.recordCapacity)
      this.records.delete(this.records.keys().next().value!);
  }

  /** The cached log of this incarnation of the session, if any (never longer than the record). */
  get(record: SessionRecord): readonly Event[] | undefined {
    const key = keyOf(record.appName, record.userId, record.id);
    const log = this.logs.get(key);
    if (!log) return undefined;
    if (log.createTime !== record.createTime || log.events.length > record.eventCount) {
      this.logs.delete(key);
      return undefined;
    }
    // Most recently used last, so that eviction drops the first entry.
    this.logs.delete(key);
    this.logs.set(key, log);
    return log.events;
  }

  set(record: SessionRecord, events: Event[]): void {
    const key = keyOf(record.appName, record.userId, record.id);
    this.remember(key, record);
    this.logs.delete(key);
    this.logs.set(key, { createTime: record.createTime, events });
    if (this.logs.size > this.capacity) this.logs.delete(this.logs.keys().next().value!);
  }

  /**
   * The first `from` events of `base` (what `get` returned before the read, or nothing) followed
   * by `events`, read from seq `from` on. Cached when nobody else changed the entry meanwhile.
   */
  extend(
    record: SessionRecord,
    base: readonly Event[] | undefined,
    from: number,
    events: Event[],
  ): readonly Event[] {
    const key = keyOf(record.appName, record.userId, record.id);
    this.remember(key, record);
    const current = this.logs.get(key);
    if (base && current?.events === base && base.length === from) {
      current.events.push(...events);
      return current.events;
    }
    const log = base ? [...base.slice(0, from), ...events] : events;
    if (!current || current.events.length <= from + events.length) this.set(record, log);
    return log;
  }

  /** Records an event this service just committed at seq `record.eventCount - 1`. */
  append(record: SessionRecord, event: Event): void {
    const key = keyOf(record.appName, record.userId, record.id);
    this.remember(key, record);
    const log = this.logs.get(key);
    if (!log) return;
    if (log.createTime === record.createTime && log.events.length === record.eventCount - 1) {
      log.events.push(event);
    } else {
      this.logs.delete(key);
    }
  }

  delete(appName: string, userId: string, sessionId: string): void {
    this.logs.delete(keyOf(appName, userId, sessionId));
    this.records.delete(keyOf(appName, userId, sessionId));
  }
}
