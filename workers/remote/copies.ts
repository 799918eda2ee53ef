// What Trellis makes of a session an ADK server serves: an in-memory copy replayed by Trellis's
// own bookkeeping (so History, the event log and the chat are drawn by the code that draws local
// sessions), its opening, and a rewind into a new session for a server without a rewind route.

import { activeEvents } from '../../src/core/active-events.ts';
import { turnText } from '../../src/core/branch-tree.ts';
import { InvalidRequestError } from '../../src/core/errors.ts';
import type { Event } from '../../src/core/event.ts';
import { parseSessionFile } from '../../src/core/session-file.ts';
import type { AdkClient, AdkSession } from '../../src/remote/client.ts';
import { InMemoryArtifactService } from '../../src/store/in-memory-artifact-service.ts';
import { InMemorySessionService } from '../../src/store/in-memory-session-service.ts';
import { AppOpenings } from '../sessions/openings.ts';
import { APP_NAME, USER_ID } from '../sessions/sessions.ts';
import type { OpeningLimits, SessionOpening } from '../protocol.ts';

/**
 * Makes a new session on the server holding the active events of session `sessionId` before turn
 * `invocationId` and the state they leave; says plainly what the server kept (ADK TypeScript's
 * server keeps only the state: it does not take events when a session is created).
 */
export async function rewindIntoNewSession(
  client: AdkClient,
  appName: string,
  sessionId: string,
  title: string,
  invocationId: string,
): Promise<{ createdId: string; note: string }> {
  const served = await client.getSession(appName, sessionId);
  const active = activeEvents(parseSessionFile(JSON.stringify(served)).events);
  const at = active.findIndex((event) => event.invocationId === invocationId);
  if (at < 0) throw new InvalidRequestError('That turn is not in the conversation any more');
  const kept = active.slice(0, at);
  const copy = new InMemorySessionService();
  const before = await copy.importSession({ appName: APP_NAME, userId: USER_ID, events: kept });
  const turn = served.events.find((e) => e.invocationId === invocationId && e.author === 'user');
  const rewoundTurn = turn ? turnText(fromServed(turn)) : '';
  const created = await client.createSession(appName, {
    state: sessionState(before.state),
    events: kept.map((event) => ({ ...event, timestamp: event.timestamp / 1000 })),
  });
  const keptEvents = (created.events ?? []).length;
  const note =
    kept.length === 0
      ? `This ADK server has no rewind: a new session was made on it, as the conversation stood before “${rewoundTurn}”.`
      : keptEvents >= kept.length
        ? `This ADK server has no rewind: a new session was made on it with the ${kept.length} events before “${rewoundTurn}” and their state.`
        : `This ADK server has no rewind, and it kept only the state of the new session made in its place (it does not take events when a session is created): the conversation before “${rewoundTurn}” is not in it, but “${title}” still has it.`;
  return { createdId: created.id, note };
}

/** A served event's text parts, as Trellis reads a turn. */
function fromServed(event: Record<string, unknown>): Event {
  return { ...(event as unknown as Event), actions: { stateDelta: {}, artifactDelta: {} } };
}

/** The session's own keys: `app:` and `user:` state is the server's to keep. */
function sessionState(state: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(state).filter(
      ([key]) => !key.startsWith('app:') && !key.startsWith('user:') && !key.startsWith('temp:'),
    ),
  );
}

export function toMs(time: number): number {
  return time < 1e11 ? Math.round(time * 1000) : time;
}

/**
 * A served session as an in-memory session of the id `id`: its log replayed by Trellis's own
 * bookkeeping, so that rewind markers (ADK Python's `rewind_async` writes Trellis's kind) give the
 * active path and the branches as they do locally.
 */
export async function servedCopy(id: string, served: AdkSession): Promise<InMemorySessionService> {
  const copy = new InMemorySessionService();
  const { events } = parseSessionFile(JSON.stringify(served));
  await copy.importSession({ appName: APP_NAME, userId: USER_ID, sessionId: id, events });
  return copy;
}

/** What the page draws of a served session's copy, built as a local session's opening is. */
export function servedOpening(
  copy: InMemorySessionService,
  id: string,
  limits?: OpeningLimits,
): Promise<SessionOpening> {
  // The summary (title, agent) is the caller's: the copy knows only the log.
  const openings = new AppOpenings(copy, new InMemoryArtifactService(), {
    getSessionMeta: async () => undefined,
  });
  return openings.opening(id, limits);
}
