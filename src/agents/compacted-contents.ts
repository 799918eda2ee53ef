// The events a model's contents are built from when the conversation holds a context compaction
// (core/compaction.ts): its summary, then the events after what it covers. Kept up to date with
// the active events as contents-cache keeps the contents, so that a turn after a compaction
// does not rebuild them, and a turn in a session that never compacted pays one memo check.
//
// Invariants:
// - the memo describes the first `count` active events of one generation of the view, and
//   `latest` is the index of the latest compaction among them (-1: none);
// - `source.events` is `modelEvents` of those events, and only grows at its end: a new
//   compaction, a rewind or any other change of generation makes a new source (with its own
//   `derived`, so the contents kept for the old one are never mistaken for the new one's).

import type { ActiveEventsView } from '../core/active-events.ts';
import { isCompactionEvent, modelEvents } from '../core/compaction.ts';
import type { Event } from '../core/event.ts';
import type { ContentsSource } from './contents-cache.ts';

const KEY = 'compaction';

interface CompactionMemo {
  generation: number;
  count: number;
  last: Event | undefined;
  latest: number;
  source: CompactedEvents | undefined;
}

/** The model's events after a compaction: a source of contents of its own. */
class CompactedEvents implements ContentsSource {
  readonly generation = 0;
  readonly derived = new Map<string, unknown>();

  constructor(readonly events: Event[]) {}

  peek(): readonly Event[] {
    return this.events;
  }
}

/**
 * What the model's contents are built from: the view itself while the active events hold no
 * compaction, else the events the latest one leaves (its summary first).
 */
export function contentsSource(view: ActiveEventsView): ContentsSource {
  const events = view.peek();
  let memo = view.derived.get(KEY) as CompactionMemo | undefined;
  if (
    !memo ||
    memo.generation !== view.generation ||
    memo.count > events.length ||
    (memo.count > 0 && events[memo.count - 1] !== memo.last)
  ) {
    memo = {
      generation: view.generation,
      count: 0,
      last: undefined,
      latest: -1,
      source: undefined,
    };
    view.derived.set(KEY, memo);
  }
  let latest = memo.latest;
  for (let i = memo.count; i < events.length; i++) if (isCompactionEvent(events[i]!)) latest = i;
  if (latest !== memo.latest) memo.source = undefined;
  else if (memo.source) {
    for (let i = memo.count; i < events.length; i++) memo.source.events.push(events[i]!);
  }
  memo.latest = latest;
  memo.count = events.length;
  memo.last = events[events.length - 1];
  if (latest < 0) return view;
  memo.source ??= new CompactedEvents([...modelEvents(events)]);
  return memo.source;
}

/** The events the model of an agent sees (ADK's `getActiveEvents`, summaries in place). */
export function modelEventsOf(view: ActiveEventsView): readonly Event[] {
  return contentsSource(view).peek();
}
