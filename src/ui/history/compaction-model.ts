// What the page says of a context compaction (core/compaction.ts): History's line under the turn
// it happened in ("Context compacted: 42 events summarised", the summary behind a disclosure),
// and the chat's quiet divider where it happened. Pure functions of the opening's active tail.
//
// What must stay true: a compaction only changes what the model is sent, never what the chat
// shows (every message stays), so both places say how to get the full context back: rewind to
// before the turn that compacted (the existing rewind; the compaction event leaves the active
// events with that turn).

import { compactionText, coveredRange, isCompactionEvent } from '../../core/compaction.ts';
import type { Event } from '../../core/event.ts';

export interface CompactionNote {
  eventId: string;
  /** The turn (invocation) it happened in: History shows it under that turn. */
  invocationId: string;
  /**
   * How many events with content (messages, calls, responses) it covers, when the tail holds
   * them all (else unknown: earlier ones). An agent's checkpoints carry no content: not counted.
   */
  events?: number;
  /** The summary the model sees instead ('' when the events were dropped, not summarised). */
  summary: string;
}

/** The compactions among the active events, oldest first. */
export function compactionNotes(active: readonly Event[]): CompactionNote[] {
  const notes: CompactionNote[] = [];
  active.forEach((event, at) => {
    if (!isCompactionEvent(event)) return;
    const compaction = event.actions.compaction;
    // A count only when the tail holds where it starts: else "earlier events" (Show earlier
    // reads more of the conversation, and the count comes with it).
    const range =
      compaction.startEventId !== undefined &&
      active.some((other) => other.id === compaction.startEventId)
        ? coveredRange(active, at)
        : undefined;
    const events = range
      ? active
          .slice(range.start, range.end + 1)
          .filter((covered) => !isCompactionEvent(covered) && covered.content?.parts.length).length
      : undefined;
    notes.push({
      eventId: event.id,
      invocationId: event.invocationId,
      ...(events !== undefined ? { events } : {}),
      summary: compactionText(compaction),
    });
  });
  return notes;
}

/** "Context compacted: 42 events summarised" (or "earlier events", or "dropped"). */
export function compactionTitle(note: CompactionNote): string {
  const what =
    note.events === undefined
      ? 'earlier events'
      : `${note.events.toLocaleString('en-US')} event${note.events === 1 ? '' : 's'}`;
  return `Context compacted: ${what} ${note.summary ? 'summarised' : 'dropped'}`;
}

/** The chat's divider where the context was compacted. */
export const COMPACTION_DIVIDER =
  'Earlier messages summarised for the model — rewind to before this turn to bring them back';

/** The compactions of each turn, by invocation id (History's rows). */
export function compactionsByTurn(
  notes: readonly CompactionNote[],
): ReadonlyMap<string, CompactionNote[]> {
  const byTurn = new Map<string, CompactionNote[]>();
  for (const note of notes) {
    const list = byTurn.get(note.invocationId);
    if (list) list.push(note);
    else byTurn.set(note.invocationId, [note]);
  }
  return byTurn;
}
