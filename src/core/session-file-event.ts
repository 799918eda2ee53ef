// One event of a session file, checked and restored to what Trellis stores: every problem is
// pushed with where it is, ADK's conventions are upgraded (`null` for an unset field, timestamps in
// seconds), what export moved into `customMetadata.trellis` is put back, and fields Trellis does
// not know are kept as they are. core/session-file reads the file around it.

import { artifactPayloadProblems, TRELLIS_METADATA } from './artifact-payloads.ts';
import type { Content, Part } from './content.ts';
import type { Event } from './event.ts';
import { restoreCompaction, type CompactionIds } from './session-file-compaction.ts';
import { newEventId } from './ids.ts';
import { ownValue, setOwn } from './state.ts';

/** What Trellis keeps of its own in an exported event's `customMetadata.trellis`. */
export interface TrellisMetadata {
  /** On the first event: the session's title and agent. */
  session?: SessionFileExtras;
  /** On a checkpoint rewind's marker: the event it rewound to (not a field of ADK's actions). */
  rewindAfterEventId?: string;
  /** On a compaction event: the ids of the events it covers (core/session-file-compaction). */
  compaction?: CompactionIds;
  /** On an event that saved artifact versions: their bytes (core/artifact-payloads). */
  artifacts?: Record<string, unknown>;
  /**
   * On the one event of an export of a session without events: the event is only there to carry
   * `session` (ADK's Session has no other place for it) and is not imported as an event.
   */
  sessionOnly?: true;
}

export interface SessionFileExtras {
  title?: string;
  agentId?: string;
}

/** The longest id (of an event, an invocation, an agent) or author a file may give. */
export const MAX_FILE_ID = 256;
/** The highest artifact version a file may name. */
export const MAX_ARTIFACT_VERSION = 100_000;

/** An event's `customMetadata.trellis`, when it is an object. */
export function trellisMetadataOf(raw: unknown): TrellisMetadata | undefined {
  if (!isRecord(raw) || !isRecord(raw.customMetadata)) return undefined;
  const own = ownValue(raw.customMetadata, TRELLIS_METADATA);
  return isRecord(own) ? (own as TrellisMetadata) : undefined;
}

/** How a file gives its events' times. */
export type TimeUnit = 'seconds' | 'milliseconds';

/**
 * The unit of a file's timestamps, told once for the whole file: seconds (ADK Python's floats,
 * 1.7e9 today) when every event's timestamp is below 1e11 (March 1973 in milliseconds, year 5138
 * in seconds), else milliseconds (ADK TypeScript, Trellis before ADK's format). One unit for the
 * file keeps its events' order and gaps whatever odd value one of them has.
 */
export function timeUnitOf(events: readonly unknown[]): TimeUnit {
  const times = events.flatMap((event) =>
    isRecord(event) && typeof event.timestamp === 'number' && Number.isFinite(event.timestamp)
      ? [event.timestamp]
      : [],
  );
  return times.length > 0 && times.every((time) => time < 1e11) ? 'seconds' : 'milliseconds';
}

export function restoreEvent(
  raw: unknown,
  at: string,
  problems: string[],
  unit: TimeUnit,
): Event | undefined {
  if (!isRecord(raw)) {
    problems.push(`${at} is not an object`);
    return undefined;
  }
  const compactionIds = trellisMetadataOf(raw)?.compaction;
  const event = withoutTrellisFields(withoutNulls(raw));
  const before = problems.length;
  const name = (field: 'id' | 'invocationId' | 'author') => {
    const value = event[field];
    if (typeof value !== 'string' || value === '')
      problems.push(`${at}.${field} must be a non-empty string`);
    else if (value.length > MAX_FILE_ID)
      problems.push(`${at}.${field} is longer than ${MAX_FILE_ID} characters`);
  };
  name('invocationId');
  name('author');
  if (event.id === undefined) event.id = newEventId();
  else name('id');
  if (typeof event.timestamp !== 'number' || !Number.isFinite(event.timestamp)) {
    problems.push(`${at}.timestamp must be a number`);
  } else if (unit === 'seconds') {
    event.timestamp = Math.round(event.timestamp * 1000);
  }
  if (event.content !== undefined)
    event.content = restoreContent(event.content, `${at}.content`, problems);
  const actions = restoreActions(event.actions, `${at}.actions`, problems);
  event.actions = actions;
  if (actions.compaction !== undefined) {
    actions.compaction = restoreCompaction(
      actions.compaction,
      compactionIds,
      `${at}.actions.compaction`,
      problems,
      unit === 'seconds',
      restoreContent,
    );
  }
  if (event.longRunningToolIds !== undefined && !isStringList(event.longRunningToolIds)) {
    problems.push(`${at}.longRunningToolIds must be a list of strings`);
  }
  // The fields Trellis reads must have their types; unknown ones are kept as they are.
  checkTypes(event, at, problems, {
    branch: 'string',
    partial: 'boolean',
    turnComplete: 'boolean',
    errorCode: 'string',
    errorMessage: 'string',
    interrupted: 'boolean',
    usageMetadata: 'object',
  });
  const { artifactDelta } = event.actions as Event['actions'];
  problems.push(...artifactPayloadProblems(event.customMetadata, artifactDelta, at));
  return problems.length === before ? (event as unknown as Event) : undefined;
}

/**
 * The event with what export moved into `customMetadata.trellis` put back: a checkpoint rewind's
 * target into its actions; the session's title and agent (read by parseSessionFile) dropped.
 */
function withoutTrellisFields(event: Record<string, unknown>): Record<string, unknown> {
  const own = trellisMetadataOf(event);
  if (
    !own ||
    (own.session === undefined &&
      own.rewindAfterEventId === undefined &&
      own.compaction === undefined)
  )
    return event;
  const { session: _session, rewindAfterEventId, compaction: _compaction, ...rest } = own;
  const metadata = { ...(event.customMetadata as Record<string, unknown>) };
  if (Object.keys(rest).length > 0) setOwn(metadata, TRELLIS_METADATA, rest);
  else delete metadata[TRELLIS_METADATA];
  const restored = { ...event };
  if (Object.keys(metadata).length > 0) restored.customMetadata = metadata;
  else delete restored.customMetadata;
  if (rewindAfterEventId !== undefined) {
    const actions = isRecord(event.actions) ? { ...event.actions } : {};
    actions.rewindAfterEventId = rewindAfterEventId;
    restored.actions = actions;
  }
  return restored;
}

type FieldType = 'string' | 'boolean' | 'object';

/** Reports each field of `record` present with another type than `types` says. */
function checkTypes(
  record: Record<string, unknown>,
  at: string,
  problems: string[],
  types: Record<string, FieldType>,
): void {
  for (const [field, type] of Object.entries(types)) {
    const value = record[field];
    if (value === undefined) continue;
    const ok = type === 'object' ? isRecord(value) : typeof value === type;
    if (!ok)
      problems.push(`${at}.${field} must be ${type === 'object' ? 'an object' : `a ${type}`}`);
  }
}

function restoreContent(raw: unknown, at: string, problems: string[]): Content | undefined {
  if (!isRecord(raw)) {
    problems.push(`${at} must be an object`);
    return undefined;
  }
  if (raw.role !== 'user' && raw.role !== 'model')
    problems.push(`${at}.role must be "user" or "model"`);
  if (!Array.isArray(raw.parts)) {
    problems.push(`${at}.parts must be a list`);
    return undefined;
  }
  const parts = raw.parts.map((part, i) => restorePart(part, `${at}.parts[${i}]`, problems));
  return {
    ...raw,
    role: raw.role as Content['role'],
    parts: parts.filter((part) => part !== undefined),
  };
}

function restorePart(raw: unknown, at: string, problems: string[]): Part | undefined {
  if (!isRecord(raw)) {
    problems.push(`${at} must be an object`);
    return undefined;
  }
  const part = withoutNulls(raw);
  const { text, functionCall, functionResponse, inlineData } = part;
  if (text !== undefined && typeof text !== 'string') problems.push(`${at}.text must be a string`);
  if (
    functionCall !== undefined &&
    !(isRecord(functionCall) && typeof functionCall.name === 'string')
  ) {
    problems.push(`${at}.functionCall needs a name`);
  } else if (isRecord(functionCall)) {
    functionCall.args ??= {};
  }
  if (
    functionResponse !== undefined &&
    !(isRecord(functionResponse) && typeof functionResponse.name === 'string')
  ) {
    problems.push(`${at}.functionResponse needs a name`);
  } else if (isRecord(functionResponse)) {
    functionResponse.response ??= {};
  }
  if (
    inlineData !== undefined &&
    !(
      isRecord(inlineData) &&
      typeof inlineData.mimeType === 'string' &&
      typeof inlineData.data === 'string'
    )
  ) {
    problems.push(`${at}.inlineData needs a mimeType and base64 data`);
  } else if (isRecord(inlineData) && /[-_]/.test(inlineData.data as string)) {
    // ADK Python's models write bytes as URL-safe base64 (pydantic's `base64`); Trellis keeps
    // the standard alphabet, which a data: URL and every provider take. Same bytes.
    part.inlineData = {
      ...inlineData,
      data: (inlineData.data as string).replace(/-/g, '+').replace(/_/g, '/'),
    };
  }
  return part as Part;
}

function restoreActions(raw: unknown, at: string, problems: string[]): Event['actions'] {
  if (raw === undefined) return { stateDelta: {}, artifactDelta: {} };
  if (!isRecord(raw)) {
    problems.push(`${at} must be an object`);
    return { stateDelta: {}, artifactDelta: {} };
  }
  const actions = withoutNulls(raw);
  actions.stateDelta ??= {};
  actions.artifactDelta ??= {};
  if (!isRecord(actions.stateDelta)) problems.push(`${at}.stateDelta must be an object`);
  if (
    !isRecord(actions.artifactDelta) ||
    !Object.entries(actions.artifactDelta).every(
      ([filename, version]) =>
        filename.trim() !== '' &&
        Number.isInteger(version) &&
        (version as number) >= 0 &&
        (version as number) <= MAX_ARTIFACT_VERSION,
    )
  ) {
    problems.push(
      `${at}.artifactDelta must map file names to versions (whole numbers from 0 to ${MAX_ARTIFACT_VERSION.toLocaleString('en-US')})`,
    );
  }
  checkTypes(actions, at, problems, {
    transferToAgent: 'string',
    escalate: 'boolean',
    skipSummarization: 'boolean',
    requestedToolConfirmations: 'object',
    agentState: 'object',
    endOfAgent: 'boolean',
  });
  // A rewind marker names one target: an invocation to go back before, or an event to go back
  // to just after.
  const targets = ['rewindBeforeInvocationId', 'rewindAfterEventId'].filter(
    (field) => actions[field] !== undefined,
  );
  for (const field of targets) {
    if (typeof actions[field] !== 'string' || actions[field] === '')
      problems.push(`${at}.${field} must be a non-empty string`);
  }
  if (targets.length > 1)
    problems.push(`${at} names both rewindBeforeInvocationId and rewindAfterEventId`);
  return actions as unknown as Event['actions'];
}

/**
 * ADK writes `null` for every unset field: here an unset field is an absent one. Keys are defined,
 * not assigned, so that a `__proto__` field stays a field (an unknown one, kept).
 */
function withoutNulls(raw: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null) setOwn(kept, key, value);
  return kept;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
