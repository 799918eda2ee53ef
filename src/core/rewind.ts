// What a rewind writes: the marker event, with the state and artifact changes that put the
// session back as it was just before an invocation, or just after an event. Pure: the stores
// carry it out.

import { InvalidRequestError } from './errors.ts';
import { createEvent, type Event, type RewindTarget } from './event.ts';
import { newInvocationId } from './ids.ts';
import {
  StatePrefix,
  applyDelta,
  diffState,
  ownValue,
  setOwn,
  splitDelta,
  type State,
} from './state.ts';

/** What a rewind request names: exactly one of the two. */
export type RewindTo =
  | { rewindBeforeInvocationId: string; rewindAfterEventId?: undefined }
  | { rewindAfterEventId: string; rewindBeforeInvocationId?: undefined };

/** The target a request names; neither or both → InvalidRequestError. */
export function requestedRewindTarget(request: {
  rewindBeforeInvocationId?: string | undefined;
  rewindAfterEventId?: string | undefined;
}): RewindTarget {
  const { rewindBeforeInvocationId: before, rewindAfterEventId: after } = request;
  if (before !== undefined && after !== undefined) {
    throw new InvalidRequestError(
      'A rewind names either rewindBeforeInvocationId or rewindAfterEventId, not both',
    );
  }
  if (typeof before === 'string' && before !== '')
    return { type: 'beforeInvocation', invocationId: before };
  if (typeof after === 'string' && after !== '') return { type: 'afterEvent', eventId: after };
  throw new InvalidRequestError(
    'A rewind needs rewindBeforeInvocationId (an invocation) or rewindAfterEventId (an event)',
  );
}

/** Session-scoped state and artifact heads (file name → latest version) at some point. */
export interface SessionSnapshot {
  readonly state: State;
  readonly artifacts: Readonly<Record<string, number>>;
}

/** The session-scoped part of an artifact delta (no `user:` files), or none if it is empty. */
export function sessionArtifactDelta(
  delta: Readonly<Record<string, number>>,
): Record<string, number> | undefined {
  let kept: Record<string, number> | undefined;
  for (const [name, version] of Object.entries(delta)) {
    if (name.startsWith(StatePrefix.user)) continue;
    setOwn((kept ??= {}), name, version);
  }
  return kept;
}

/**
 * The session as it stood after `events`, a contiguous stretch of the raw log that started at
 * `before`: their session-scoped deltas applied in log order, markers' included (a marker's
 * delta is what put the session back then, so rewinds inside the stretch count as they did).
 */
export function snapshotAfter(before: SessionSnapshot, events: readonly Event[]): SessionSnapshot {
  let state = before.state;
  let artifacts = before.artifacts;
  for (const { actions } of events) {
    state = applyDelta(state, splitDelta(actions.stateDelta).session);
    const changed = sessionArtifactDelta(actions.artifactDelta);
    if (changed) artifacts = { ...artifacts, ...changed };
  }
  return { state, artifacts };
}

export interface ArtifactRestore {
  filename: string;
  /** Save this version's bytes again as a new version; `undefined`: the file did not exist. */
  restoreVersion: number | undefined;
}

export interface RewindPlan {
  /** Every session key back to its earlier value; keys that did not exist then → `null`. */
  stateDelta: Record<string, unknown>;
  /** Session artifacts whose latest version differs from the earlier one. */
  artifacts: ArtifactRestore[];
}

/**
 * The changes that turn `current` into `before`. Its cost is the size of the two snapshots,
 * never the length of the log.
 */
export function planRewind(current: SessionSnapshot, before: SessionSnapshot): RewindPlan {
  const artifacts: ArtifactRestore[] = [];
  const names = new Set([...Object.keys(current.artifacts), ...Object.keys(before.artifacts)]);
  for (const filename of [...names].sort()) {
    // Own keys only: a file may be called `constructor`.
    const restoreVersion = ownValue(before.artifacts, filename) as number | undefined;
    if (ownValue(current.artifacts, filename) !== restoreVersion)
      artifacts.push({ filename, restoreVersion });
  }
  return { stateDelta: diffState(current.state, before.state), artifacts };
}

/** The marker of a rewind to `target`: author `user`, an invocation of its own. */
export function createRewindMarker(
  target: RewindTarget,
  stateDelta: Record<string, unknown>,
  artifactDelta: Record<string, number>,
): Event {
  return createEvent({
    invocationId: newInvocationId(),
    author: 'user',
    actions: {
      ...(target.type === 'beforeInvocation'
        ? { rewindBeforeInvocationId: target.invocationId }
        : { rewindAfterEventId: target.eventId }),
      stateDelta,
      artifactDelta,
    },
  });
}
