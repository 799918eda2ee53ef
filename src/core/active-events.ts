// The rewind-aware view of a session's log.
//
// The raw log is append-only; a rewind appends a marker whose `rewindBeforeInvocationId` names an
// invocation X. The active events of a log are defined recursively:
//   active([])                  = []
//   active(log + [marker → X])  = active(log up to, not including, the first event of X)
//   active(log + [e])           = active(log) + [e]
// so a marker puts the conversation back exactly as it was just before X was written (nested
// rewinds, rewinds into a span an earlier rewind hid, and rewinds before a marker all follow).
// A marker whose target is not in the log before it hides nothing but itself.
//
// Everything that reads a conversation reads this view: the model's context, the choice of the
// agent that answers next, resume, confirmation matching and the UI.

import type { Event } from './event.ts';

/** The active events of a raw log, oldest first. O(length of the log). */
export function activeEvents(log: readonly Event[]): Event[] {
  const firstIndex = firstIndexByInvocation(log);
  const kept: Event[] = [];
  let i = log.length - 1;
  while (i >= 0) {
    const event = log[i]!;
    const target = event.actions.rewindBeforeInvocationId;
    if (target === undefined) {
      kept.push(event);
      i--;
      continue;
    }
    const first = firstIndex.get(target);
    i = first !== undefined && first < i ? first - 1 : i - 1;
  }
  return kept.reverse();
}

/** Invocation id → index of its first event in the log. */
export function firstIndexByInvocation(log: readonly Event[]): Map<string, number> {
  const first = new Map<string, number>();
  for (let i = 0; i < log.length; i++) {
    const id = log[i]!.invocationId;
    if (!first.has(id)) first.set(id, i);
  }
  return first;
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
      if (
        this.computedFor === this.log.length - 1 &&
        last &&
        !last.actions.rewindBeforeInvocationId
      ) {
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
