// A page of a session's raw log for the event log, read the same way by both session services:
// the events of the page, which of them are active, and what each marker went back to, without
// reading the rest of the log.

import { indexAfterMarker } from '../core/active-events.ts';
import { rewindTargetOf, type Event } from '../core/event.ts';
import type { LogEntry, LogPage } from './session-service.ts';
import type { TurnReader } from './turn-summary.ts';

/**
 * The events at positions `fromSeq` … `fromSeq + limit - 1` of the log. Which are active is found
 * walking back from the end over the markers that moved the tip (the only ones that hide
 * anything), as core/active-events walks over the events: between such a marker and the
 * position the walk is at, every event is active.
 */
export async function readLogPage(
  reader: TurnReader,
  fromSeq: number,
  limit: number,
): Promise<LogPage> {
  const length = reader.length;
  const from = Math.min(Math.max(0, fromSeq), length);
  const to = Math.min(length, from + Math.max(0, limit)) - 1;
  if (to < from) return { eventCount: length, entries: [] };
  const [events, markers] = await Promise.all([reader.span(from, to), reader.markers()]);

  /** Active spans [low, high] reaching into the page, latest first. */
  const active: [number, number][] = [];
  let m = markers.length - 1;
  for (let i = length - 1; i >= from;) {
    while (m >= 0 && markers[m]!.firstSeq > i) m--;
    const marker = markers[m];
    const low = marker ? marker.firstSeq + 1 : 0;
    if (low <= i) active.push([low, i]);
    if (!marker) break;
    const target = rewindTargetOf(await reader.eventAt(marker.firstSeq))!;
    i = indexAfterMarker(target, await reader.indexOfTarget(target), marker.firstSeq);
  }
  const isActive = (seq: number) => active.some(([low, high]) => low <= seq && seq <= high);

  const entries = await Promise.all(
    events.map(async (event, i): Promise<LogEntry> => {
      const seq = from + i;
      const target = rewindTargetOf(event);
      if (!target) return { seq, event, active: isActive(seq) };
      const at = await reader.indexOfTarget(target);
      const targetEvent: Event | undefined =
        at !== undefined && at < seq ? await reader.eventAt(at) : undefined;
      return { seq, event, active: false, ...(targetEvent ? { target: targetEvent } : {}) };
    }),
  );
  return { eventCount: length, entries };
}
