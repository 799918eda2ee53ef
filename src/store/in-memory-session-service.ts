// Sessions in memory: for tests, demos and InMemoryRunner. Every write happens synchronously
// inside one method call, which makes it as atomic as an IndexedDB transaction.

import { DuplicateEventError, SessionExistsError, SessionNotFoundError } from '../core/errors.ts';
import type { Event } from '../core/event.ts';
import { newSessionId } from '../core/ids.ts';
import { applyDelta } from '../core/state.ts';
import {
  appendToRecord,
  checkpointBefore,
  initialStateEvent,
  mayStartInvocation,
  newSessionRecord,
  selectEvents,
  toSession,
  toStoredEvent,
  type SessionRecord,
} from './session-log.ts';
import {
  BaseSessionService,
  numRecentEventsOf,
  type AppendEventRequest,
  type CreateSessionRequest,
  type GetSessionRequest,
  type InvocationCheckpoint,
  type ListSessionsRequest,
  type ListSessionsResponse,
  type Session,
  type SessionKey,
} from './session-service.ts';

interface StoredSession {
  record: SessionRecord;
  events: Event[];
  eventIds: Set<string>;
  checkpoints: Map<string, InvocationCheckpoint>;
}

const keyOf = (...parts: string[]) => JSON.stringify(parts);

export class InMemorySessionService extends BaseSessionService {
  private readonly sessions = new Map<string, StoredSession>();
  private readonly appStates = new Map<string, Record<string, unknown>>();
  private readonly userStates = new Map<string, Record<string, unknown>>();

  override async createSession(request: CreateSessionRequest): Promise<Session> {
    const { appName, userId } = request;
    const id = request.sessionId ?? newSessionId();
    const key = keyOf(appName, userId, id);
    if (this.sessions.has(key)) throw new SessionExistsError(id);
    const stored: StoredSession = {
      record: newSessionRecord(appName, userId, id, Date.now()),
      events: [],
      eventIds: new Set(),
      checkpoints: new Map(),
    };
    const initial = initialStateEvent(request.state);
    if (initial) this.append(stored, toStoredEvent(initial));
    this.sessions.set(key, stored);
    return this.toSession(stored, stored.events.slice());
  }

  override async getSession(request: GetSessionRequest): Promise<Session | undefined> {
    const stored = this.find(request);
    if (!stored) return undefined;
    const events = selectEvents(
      stored.events,
      numRecentEventsOf(request),
      request.config?.afterTimestamp,
    );
    return this.toSession(stored, events === stored.events ? events.slice() : events);
  }

  override async listSessions({
    appName,
    userId,
  }: ListSessionsRequest): Promise<ListSessionsResponse> {
    const sessions: Session[] = [];
    for (const stored of this.sessions.values()) {
      if (stored.record.appName === appName && stored.record.userId === userId) {
        sessions.push(this.toSession(stored, []));
      }
    }
    sessions.sort((a, b) => b.lastUpdateTime - a.lastUpdateTime);
    return { sessions };
  }

  override async deleteSession(request: SessionKey): Promise<void> {
    const key = keyOf(request.appName, request.userId, request.sessionId);
    if (!this.sessions.delete(key)) throw new SessionNotFoundError(request.sessionId);
  }

  override async appendEvent({ session, event }: AppendEventRequest): Promise<Event> {
    if (event.partial) return event;
    const stored = this.find({
      appName: session.appName,
      userId: session.userId,
      sessionId: session.id,
    });
    if (!stored) throw new SessionNotFoundError(session.id);
    if (stored.eventIds.has(event.id)) throw new DuplicateEventError(event.id);
    const storedEvent = toStoredEvent(event);
    this.append(stored, storedEvent);
    return storedEvent;
  }

  override async getInvocationCheckpoint(
    request: SessionKey & { invocationId: string },
  ): Promise<InvocationCheckpoint | undefined> {
    return this.find(request)?.checkpoints.get(request.invocationId);
  }

  private find({ appName, userId, sessionId }: SessionKey): StoredSession | undefined {
    return this.sessions.get(keyOf(appName, userId, sessionId));
  }

  private append(stored: StoredSession, event: Event): void {
    const { record } = stored;
    if (
      mayStartInvocation(record, event.invocationId) &&
      !stored.checkpoints.has(event.invocationId)
    ) {
      stored.checkpoints.set(event.invocationId, checkpointBefore(record, event.invocationId));
    }
    const outcome = appendToRecord(record, event);
    const appKey = keyOf(record.appName);
    const userKey = keyOf(record.appName, record.userId);
    this.appStates.set(appKey, applyDelta(this.appStates.get(appKey) ?? {}, outcome.deltas.app));
    this.userStates.set(
      userKey,
      applyDelta(this.userStates.get(userKey) ?? {}, outcome.deltas.user),
    );
    stored.record = outcome.record;
    stored.events.push(event);
    stored.eventIds.add(event.id);
  }

  private toSession(stored: StoredSession, events: readonly Event[]): Session {
    const { appName, userId } = stored.record;
    return toSession(
      stored.record,
      this.appStates.get(keyOf(appName)) ?? {},
      this.userStates.get(keyOf(appName, userId)) ?? {},
      events,
    );
  }
}
