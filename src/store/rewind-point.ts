// Where a rewind goes back to, found the same way by both session services (each reading its own
// storage, inside its own atomic write), so that they cannot disagree.
//
// Neither kind of target costs a replay of the log: the session as it was just before an
// invocation is that invocation's checkpoint; just after an event E, it is the checkpoint of E's
// invocation plus the stretch of the log from that invocation's first event up to E. Checking
// that E is active reads the active events after E (what the rewind drops) and nothing else.

import { activeEventsAfter, type LogReader } from '../core/active-events.ts';
import {
  EventNotFoundError,
  InvalidRequestError,
  InvocationNotFoundError,
} from '../core/errors.ts';
import { isRewindMarker, type Event, type RewindTarget } from '../core/event.ts';
import { snapshotAfter, type SessionSnapshot } from '../core/rewind.ts';
import type { InvocationCheckpoint } from './session-service.ts';

/** What finding a rewind's target reads from a session's storage. */
export interface RewindReader extends LogReader {
  checkpoint(invocationId: string): Promise<InvocationCheckpoint | undefined>;
  /** An event of the session and its position in the log. */
  findEvent(eventId: string): Promise<{ index: number; event: Event } | undefined>;
  /** The events at positions `from` to `to`, both included. */
  span(from: number, to: number): Promise<Event[]>;
}

/**
 * The session-scoped state and artifact heads a rewind to `target` restores. Unknown
 * invocation → InvocationNotFoundError; unknown event → EventNotFoundError; an event that is a
 * marker, that a rewind hid, or that nothing active follows → InvalidRequestError.
 */
export async function snapshotToRestore(
  reader: RewindReader,
  target: RewindTarget,
  sessionId: string,
): Promise<SessionSnapshot> {
  if (target.type === 'beforeInvocation') {
    const checkpoint = await reader.checkpoint(target.invocationId);
    if (!checkpoint) throw new InvocationNotFoundError(target.invocationId, sessionId);
    return checkpoint;
  }
  const { eventId } = target;
  const found = await reader.findEvent(eventId);
  if (!found) throw new EventNotFoundError(eventId, sessionId);
  const { index, event } = found;
  if (isRewindMarker(event)) {
    throw new InvalidRequestError(
      `Event ${eventId} is a rewind marker; to undo that rewind, rewind before its invocation ` +
        `(${event.invocationId})`,
    );
  }
  const after = await activeEventsAfter(reader, index);
  if (!after) {
    throw new InvalidRequestError(
      `Event ${eventId} was rewound (it is not in the active conversation), so the session ` +
        'cannot be rewound to just after it',
    );
  }
  if (after.length === 0) {
    throw new InvalidRequestError(
      `Event ${eventId} is the last event of the active conversation: there is nothing to rewind`,
    );
  }
  const checkpoint = await reader.checkpoint(event.invocationId);
  if (!checkpoint || checkpoint.firstSeq > index) {
    throw new Error(`Bug: no checkpoint before event ${eventId} of ${event.invocationId}`);
  }
  return snapshotAfter(checkpoint, await reader.span(checkpoint.firstSeq, index));
}
