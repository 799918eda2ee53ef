// After a rewind: memory forgets what the session had added from the events the rewind took off
// its active path ("rewinding a session removes what it added to memory past that point").
//
// What must stay true:
// - a session with nothing in memory costs one lookup: its log is read only when memory holds
//   some of its events, so a rewind stays O(1) in the log's length (BENCHMARKS.md);
// - the rewind is written before this runs and stands whatever happens here.

import { activeEvents } from '../core/active-events.ts';
import type { BaseMemoryService } from '../store/memory-service.ts';
import type { BaseSessionService, SessionKey } from '../store/session-service.ts';

/**
 * Removes from memory the session's events that are no longer active. A memory of an event
 * that a later switch back to its branch makes active again is not put back: adding the session
 * to memory again does that.
 */
export async function forgetRewoundEvents(
  memory: BaseMemoryService,
  sessions: BaseSessionService,
  key: SessionKey,
): Promise<void> {
  try {
    const held = await memory.listMemoryEventIds(key);
    if (held.length === 0) return;
    const session = await sessions.getSession(key);
    if (!session) return;
    const active = new Set(activeEvents(session.events).map((event) => event.id));
    const eventIds = held.filter((id) => !active.has(id));
    if (eventIds.length > 0) await memory.removeEventsFromMemory({ ...key, eventIds });
  } catch (error) {
    // The rewind is written and a failure here must not report it as failed: the memories
    // stay until the session is added to memory again, which replaces what it had added.
    console.warn(
      'Trellis: a rewind could not remove what the rewound events added to memory',
      error,
    );
  }
}
