// What a rewind writes: the marker event, with the state and artifact changes that put the
// session back as it was just before an invocation. Pure: the stores carry it out.

import { createEvent, type Event } from './event.ts';
import { newInvocationId } from './ids.ts';
import { diffState, type State } from './state.ts';

/** Session-scoped state and artifact heads (file name → latest version) at some point. */
export interface SessionSnapshot {
  readonly state: State;
  readonly artifacts: Readonly<Record<string, number>>;
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
    const restoreVersion = before.artifacts[filename];
    if (current.artifacts[filename] !== restoreVersion)
      artifacts.push({ filename, restoreVersion });
  }
  return { stateDelta: diffState(current.state, before.state), artifacts };
}

/** The marker of a rewind before `invocationId`: author `user`, an invocation of its own. */
export function createRewindMarker(
  invocationId: string,
  stateDelta: Record<string, unknown>,
  artifactDelta: Record<string, number>,
): Event {
  return createEvent({
    invocationId: newInvocationId(),
    author: 'user',
    actions: { rewindBeforeInvocationId: invocationId, stateDelta, artifactDelta },
  });
}
