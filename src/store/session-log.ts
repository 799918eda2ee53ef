// Bookkeeping shared by both session services, so that they cannot disagree: what a stored event
// looks like, how appending one changes the session record, and when a checkpoint is taken.

import { InvalidRequestError } from '../core/errors.ts';
import { isTurnStart, turnText } from '../core/branch-tree.ts';
import { textOf } from '../core/content.ts';
import { createEvent, type Event } from '../core/event.ts';
import { newInvocationId } from '../core/ids.ts';
import { LogPrefix, withLogEvents } from '../core/log-prefix.ts';
import { sessionArtifactDelta } from '../core/rewind.ts';
import {
  applyDelta,
  mergeScopes,
  splitDelta,
  withoutTemp,
  type ScopedDeltas,
} from '../core/state.ts';
import type { InvocationCheckpoint, Session } from './session-service.ts';

/** A session as stored: its own keys only; app and user state live in their own records. */
export interface SessionRecord {
  appName: string;
  userId: string;
  id: string;
  /**
   * Session-scoped state: whole in memory; as stored, without the long values `long` names
   * (src/store/long-values.ts).
   */
  state: Record<string, unknown>;
  /** The ids of its long state values (IndexedDB only). */
  long?: Record<string, string>;
  /** Session-scoped artifact file name → latest version named by an event's artifactDelta. */
  artifacts: Record<string, number>;
  createTime: number;
  lastUpdateTime: number;
  /** Number of events in the log; the next event gets this sequence number. */
  eventCount: number;
  /** Invocation of the last event: appending another one may need a checkpoint. */
  lastInvocationId?: string;
  /**
   * The tip: the last turn of the active conversation (`NO_TURN`, or absent, for none), moved by
   * each turn's first event and by rewind markers exactly as core/branch-tree.ts moves it.
   */
  tip?: string;
}

/** A turn id that names no turn: the tip of an empty conversation, the parent of a root turn. */
export const NO_TURN = '';

/**
 * What the branch tree needs to know of an invocation, recorded with its checkpoint when its first
 * event is appended, so that opening a session reads a few of these instead of the whole log.
 */
export interface InvocationTurn {
  /** The tip when the invocation began (`NO_TURN`: none). */
  tipBefore: string;
  /** Set when the invocation is a turn (it starts with a message and is no marker). */
  turn?: TurnRecord;
  /** Set when the invocation is a rewind marker that moved the tip. */
  marker?: { abandonedTip: string; restoredTip: string };
}

export interface TurnRecord {
  /** The turn it hangs under (`NO_TURN`: a root). */
  parentId: string;
  /** The text of the message that started it. */
  title: string;
  /** Started by a user's text message: it can be edited and run again. */
  editable: boolean;
}

/** The tip a rewind marker goes back to: `undefined` when its target is not before it. */
export type RestoredTip = { tip: string } | undefined;

/** The record's tip after appending `event` to the log `before` describes. */
export function withTip(
  after: SessionRecord,
  event: Event,
  startsInvocation: boolean,
  restored: RestoredTip,
): SessionRecord {
  let tip = after.tip ?? NO_TURN;
  if (startsInvocation && isTurnStart(event)) tip = event.invocationId;
  if (restored) tip = restored.tip;
  return tip === (after.tip ?? NO_TURN) ? after : { ...after, tip };
}

/** The turn bookkeeping of an invocation whose first event, `event`, is appended to `record`. */
export function invocationTurn(
  record: SessionRecord,
  event: Event,
  restored: RestoredTip,
): InvocationTurn {
  const tipBefore = record.tip ?? NO_TURN;
  if (isTurnStart(event)) {
    const turn: TurnRecord = {
      parentId: tipBefore,
      title: turnText(event),
      editable: event.author === 'user' && textOf(event.content) !== '',
    };
    return { tipBefore, turn };
  }
  if (restored)
    return { tipBefore, marker: { abandonedTip: tipBefore, restoredTip: restored.tip } };
  return { tipBefore };
}

export function newSessionRecord(
  appName: string,
  userId: string,
  id: string,
  now: number,
): SessionRecord {
  return {
    appName,
    userId,
    id,
    state: {},
    artifacts: {},
    createTime: now,
    lastUpdateTime: now,
    eventCount: 0,
  };
}

/** The synthetic first event that records a session's initial state, or none for no state. */
export function initialStateEvent(state: Record<string, unknown> | undefined): Event | undefined {
  const delta = withoutTemp(state ?? {});
  if (Object.keys(delta).length === 0) return undefined;
  return createEvent({
    invocationId: newInvocationId(),
    author: 'user',
    actions: { stateDelta: delta },
  });
}

/**
 * The event as the log keeps it: a private deep copy (only structured-clonable data can be
 * stored, in memory as in IndexedDB), `temp:` keys dropped, frozen so that nobody who reads the
 * log can change it.
 */
export function toStoredEvent(event: Event): Event {
  const copy = structuredClone(event);
  copy.actions.stateDelta = withoutTemp(copy.actions.stateDelta ?? {});
  copy.actions.artifactDelta ??= {};
  return deepFreeze(copy);
}

export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}

export interface AppendOutcome {
  record: SessionRecord;
  seq: number;
  deltas: ScopedDeltas;
}

/** The record after appending `event` (already a stored event) at the end of the log. */
export function appendToRecord(record: SessionRecord, event: Event): AppendOutcome {
  const deltas = splitDelta(event.actions.stateDelta);
  const sessionArtifacts = sessionArtifactDelta(event.actions.artifactDelta);
  return {
    seq: record.eventCount,
    deltas,
    record: {
      ...record,
      state: applyDelta(record.state, deltas.session),
      artifacts: sessionArtifacts ? { ...record.artifacts, ...sessionArtifacts } : record.artifacts,
      lastUpdateTime: Math.max(record.lastUpdateTime, event.timestamp),
      eventCount: record.eventCount + 1,
      lastInvocationId: event.invocationId,
    },
  };
}

/** Whether appending an event of `invocationId` may start a new invocation (then look it up). */
export function mayStartInvocation(record: SessionRecord, invocationId: string): boolean {
  return record.lastInvocationId !== invocationId;
}

/** The checkpoint of an invocation whose first event is about to be appended to `record`. */
export function checkpointBefore(
  record: SessionRecord,
  invocationId: string,
): InvocationCheckpoint {
  return {
    invocationId,
    firstSeq: record.eventCount,
    state: record.state,
    artifacts: record.artifacts,
  };
}

/**
 * The session as a caller sees it. Given a prefix of the log, its `events` are copied only when
 * read (see core/log-prefix.ts): a runner reads the log without the copy.
 */
export function toSession(
  record: SessionRecord,
  appState: Record<string, unknown>,
  userState: Record<string, unknown>,
  events: readonly Event[] | LogPrefix,
): Session {
  const session = {
    id: record.id,
    appName: record.appName,
    userId: record.userId,
    state: mergeScopes(appState, userState, record.state),
    events: events instanceof LogPrefix ? [] : events,
    lastUpdateTime: record.lastUpdateTime,
  };
  return events instanceof LogPrefix ? withLogEvents(session, events) : session;
}

/** The events a `GetSessionConfig` asks for, from the full log. */
export function selectEvents(
  events: readonly Event[],
  numRecentEvents: number | undefined,
  afterTimestamp: number | undefined,
): readonly Event[] {
  let selected = events;
  if (afterTimestamp !== undefined) {
    let start = selected.length;
    while (start > 0 && selected[start - 1]!.timestamp >= afterTimestamp) start--;
    selected = selected.slice(start);
  }
  if (numRecentEvents !== undefined) {
    selected = numRecentEvents <= 0 ? [] : selected.slice(-numRecentEvents);
  }
  return selected;
}

/** A rewind or fork that must write artifacts elsewhere than where it writes the session. */
export function artifactsNotAtomic(): InvalidRequestError {
  return new InvalidRequestError(
    'The session’s artifacts must be restored in the same atomic write as the session, so the ' +
      'session and artifact services must be of the same kind (and, for IndexedDB, share a dbName)',
  );
}
