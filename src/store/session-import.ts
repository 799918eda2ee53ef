// What importing a log writes, worked out once for both session services (so that they cannot
// disagree) before either writes anything:
// - each event as it will be stored (`temp:` keys dropped, artifact bytes taken out);
// - each rewind marker's stateDelta and artifactDelta re-derived from the log before it, exactly
//   as rewindSession computes them when the marker is written, instead of trusted from the file
//   (a marker "to before the first turn" carrying `{evil: "x"}` must not put `evil` in the state);
// - the session-scoped artifact versions to write, with the numbers the log gives them: the bytes
//   an event carries (see core/artifact-payloads), a tombstone for a version named without bytes,
//   and for a marker, a copy of the version it restores (or a tombstone), as rewind writes.
// Whatever is wrong is an InvalidSessionFileError that says which event and why.

import {
  artifactPayloadProblems,
  artifactPayloadsOf,
  withoutArtifactPayloads,
} from '../core/artifact-payloads.ts';
import type { Part } from '../core/content.ts';
import { InvalidSessionFileError, isTrellisError } from '../core/errors.ts';
import { rewindTargetOf, type Event, type RewindTarget } from '../core/event.ts';
import { planRewind, sessionArtifactDelta } from '../core/rewind.ts';
import { ownValue, setOwn } from '../core/state.ts';
import { snapshotToRestore } from './rewind-point.ts';
import {
  appendToRecord,
  checkpointBefore,
  mayStartInvocation,
  newSessionRecord,
  toStoredEvent,
  type SessionRecord,
} from './session-log.ts';
import type { InvocationCheckpoint } from './session-service.ts';
import { memoryRewindReader } from './turn-log.ts';

/** A version's content: the part as saved, or `null` for a tombstone (no bytes). */
export type ImportedVersion = Part | null;

/** File name → version number → its content, versions in ascending order. */
export type ImportedArtifacts = Map<string, Map<number, ImportedVersion>>;

export interface ImportPlan {
  /** The events to store, in log order (stored form: frozen copies). */
  events: Event[];
  /** The session-scoped artifact versions to write (empty without an artifact service). */
  artifacts: ImportedArtifacts;
}

/**
 * Plans the import of `events`. With `restoresArtifacts` (the import writes artifacts, as a
 * rewind with an artifact service does), markers restore artifact versions and the versions the
 * events carry are written; without, markers restore state only, as such a rewind does.
 */
export async function planImport(
  events: readonly Event[],
  { restoresArtifacts }: { restoresArtifacts: boolean },
): Promise<ImportPlan> {
  const log: Event[] = [];
  const eventSeqs = new Map<string, number>();
  const checkpoints = new Map<string, InvocationCheckpoint>();
  let record = newSessionRecord('', '', '', 0);
  const artifacts: ImportedArtifacts = new Map();
  /** File name → the next version number it may take. */
  const next = new Map<string, number>();
  const write = (filename: string, version: number, content: ImportedVersion) => {
    let versions = artifacts.get(filename);
    if (!versions) artifacts.set(filename, (versions = new Map()));
    versions.set(version, content);
  };

  for (const [index, event] of events.entries()) {
    const at = `events[${index}]`;
    const refuse = (problem: string): never => {
      throw new InvalidSessionFileError([`${at} ${problem}`]);
    };
    if (eventSeqs.has(event.id))
      refuse(`has the id ${JSON.stringify(event.id)} of an earlier event`);
    const payloadProblems = artifactPayloadProblems(
      event.customMetadata,
      event.actions?.artifactDelta,
      at,
    );
    if (payloadProblems.length > 0) throw new InvalidSessionFileError(payloadProblems);
    let stored = withoutArtifactPayloads(event);
    const target = rewindTargetOf(event);
    if (target) {
      const reader = memoryRewindReader({ events: log, eventSeqs, checkpoints });
      const restored = await snapshotToRestore(reader, target, '').catch((error: unknown): never =>
        refuse(markerProblem(error, target)),
      );
      const plan = planRewind(record, restored);
      const artifactDelta: Record<string, number> = {};
      if (restoresArtifacts) {
        for (const { filename, restoreVersion } of plan.artifacts) {
          const version = next.get(filename) ?? 0;
          const old =
            restoreVersion === undefined ? null : artifacts.get(filename)?.get(restoreVersion);
          write(filename, version, old ?? null);
          next.set(filename, version + 1);
          setOwn(artifactDelta, filename, version);
        }
      }
      stored = {
        ...stored,
        actions: { ...stored.actions, stateDelta: plan.stateDelta, artifactDelta },
      };
    } else {
      const payloads = artifactPayloadsOf(event);
      const named = sessionArtifactDelta(event.actions?.artifactDelta ?? {}) ?? {};
      for (const [filename, version] of Object.entries(named)) {
        const from = next.get(filename) ?? 0;
        if (version < from) {
          refuse(
            `names version ${version} of ${JSON.stringify(filename)}, but the log before it ` +
              `already reached version ${from - 1}: versions only go up`,
          );
        }
        if (restoresArtifacts)
          write(filename, version, (ownValue(payloads, filename) as Part) ?? null);
        next.set(filename, version + 1);
      }
    }
    try {
      stored = toStoredEvent(stored);
    } catch (error) {
      // Only structured-clonable data can be stored (a file's JSON always is; a caller's may not be).
      refuse(`cannot be stored: ${(error as Error).message}`);
    }
    if (mayStartInvocation(record, stored.invocationId) && !checkpoints.has(stored.invocationId))
      checkpoints.set(stored.invocationId, checkpointBefore(record, stored.invocationId));
    record = appendToRecord(record, stored).record;
    eventSeqs.set(stored.id, log.length);
    log.push(stored);
  }
  return { events: log, artifacts: sorted(artifacts) };
}

/** A new session's record for an import, listed by the time its source last changed (if given). */
export function importedRecord(
  record: SessionRecord,
  lastUpdateTime: number | undefined,
): SessionRecord {
  return lastUpdateTime === undefined ? record : { ...record, lastUpdateTime };
}

/** Why a marker cannot be replayed, from the error a rewind to its target would give. */
function markerProblem(error: unknown, target: RewindTarget): string {
  const named =
    target.type === 'beforeInvocation'
      ? `invocation ${JSON.stringify(target.invocationId)}`
      : `event ${JSON.stringify(target.eventId)}`;
  if (
    isTrellisError(error, 'InvocationNotFoundError') ||
    isTrellisError(error, 'EventNotFoundError')
  )
    return `is a rewind marker to ${named}, which is not before it in the file`;
  if (isTrellisError(error, 'InvalidRequestError'))
    return `is a rewind marker to ${named} that cannot be replayed: ${(error as Error).message}`;
  throw error;
}

function sorted(artifacts: ImportedArtifacts): ImportedArtifacts {
  const out: ImportedArtifacts = new Map();
  for (const [filename, versions] of artifacts)
    out.set(filename, new Map([...versions].sort(([a], [b]) => a - b)));
  return out;
}

/** How many versions the plan writes (none: the artifact service is not needed). */
export function versionCount(artifacts: ImportedArtifacts): number {
  let count = 0;
  for (const versions of artifacts.values()) count += versions.size;
  return count;
}
