// Sessions as JSON files: what export writes and import accepts. The format is ADK's session
// JSON, `{ id, appName, userId, state, events, lastUpdateTime }` and nothing else at the top (ADK
// Python's `Session` forbids other fields), so a session exported by ADK imports here and the
// other way round.
//
// Export writes camelCase with ADK's timestamps (seconds, as floats). What only Trellis knows
// travels where ADK allows free data, in events' `customMetadata.trellis` (see TrellisMetadata),
// and comes back on import: the session's title and agent on the first event, a checkpoint
// rewind's target on its marker, artifact bytes on the events that saved them.
//
// Import reads camelCase and snake_case (ADK Python's field names; core/adk-case), is strict about
// what it needs and lenient about the rest (as excalidraw's restore): every problem is reported
// with where it is, ADK's conventions (timestamps in seconds, `null` for unset fields) are
// upgraded, and fields it does not know are kept. The file's top-level `state`, where the events
// do not explain it, becomes the session's initial state, logged first as createSession does.
// Files of older Trellis versions (a top-level `trellis` field, timestamps in ms) still import.

import { artifactPayloadProblems } from './artifact-payloads.ts';
import type { Content, Part } from './content.ts';
import { InvalidSessionFileError } from './errors.ts';
import type { Event } from './event.ts';
import { newEventId } from './ids.ts';
import { SESSION_FILE_LIMITS, jsonTextProblem, jsonTreeProblem } from './json-limits.ts';
import { ownValue, setOwn } from './state.ts';
import { adkSpelling, camelizeAdk, type AdkSpelling } from './adk-case.ts';
import { TRELLIS_METADATA } from './artifact-payloads.ts';
import { initialStateOf } from './session-file-state.ts';

/** The format name of the top-level `trellis` field older Trellis exports carried. */
export const SESSION_FILE_FORMAT = 'trellis-session';

/** What Trellis keeps of its own in an exported event's `customMetadata.trellis`. */
export interface TrellisMetadata {
  /** On the first event: the session's title and agent. */
  session?: SessionFileExtras;
  /** On a checkpoint rewind's marker: the event it rewound to (not a field of ADK's actions). */
  rewindAfterEventId?: string;
  /** On an event that saved artifact versions: their bytes (core/artifact-payloads). */
  artifacts?: Record<string, unknown>;
}

export interface SessionFileExtras {
  title?: string;
  agentId?: string;
}

export interface SessionFile {
  id: string;
  appName: string;
  userId: string;
  state: Record<string, unknown>;
  events: readonly Event[];
  lastUpdateTime: number;
  /** Only in files of older Trellis versions (read, never written). */
  trellis?: { format: typeof SESSION_FILE_FORMAT; version: 1 } & SessionFileExtras;
}

export interface ParsedSessionFile extends SessionFileExtras {
  /**
   * The events to import, in order; partial ones left out. When the file's `state` holds what its
   * events do not explain, the first is the event that sets that initial state.
   */
  events: Event[];
  /** The id the session had where it came from. */
  sourceId?: string;
  /** How the file spelled ADK's fields. */
  spelling: AdkSpelling;
}

const MAX_PROBLEMS = 12;

/** The longest session title (the app caps a rename at this too). */
export const MAX_SESSION_TITLE = 120;
/** The longest id (of an event, an invocation, an agent) or author a file may give. */
export const MAX_FILE_ID = 256;
/** The highest artifact version a file may name. */
export const MAX_ARTIFACT_VERSION = 100_000;

/**
 * The session as ADK's Session JSON: camelCase, timestamps in seconds, no field ADK does not
 * know at the top or in an event's actions; Trellis's own data in `customMetadata.trellis`.
 */
export function toSessionFile(
  session: Omit<SessionFile, 'trellis'>,
  extras: SessionFileExtras = {},
): string {
  const file: Omit<SessionFile, 'trellis'> = {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events: session.events.map((event, index) =>
      toFileEvent(event, index === 0 ? extras : undefined),
    ),
    lastUpdateTime: session.lastUpdateTime / 1000,
  };
  return JSON.stringify(file, null, 2);
}

function toFileEvent(event: Event, session: SessionFileExtras | undefined): Event {
  const { rewindAfterEventId, ...actions } = event.actions;
  const own: TrellisMetadata = {};
  if (session && (session.title !== undefined || session.agentId !== undefined))
    own.session = { ...session };
  if (rewindAfterEventId !== undefined) own.rewindAfterEventId = rewindAfterEventId;
  let customMetadata = event.customMetadata;
  if (Object.keys(own).length > 0) {
    customMetadata = { ...customMetadata };
    const trellis = { ...(ownValue(customMetadata, TRELLIS_METADATA) as object | undefined) };
    for (const [key, value] of Object.entries(own)) setOwn(trellis, key, value);
    setOwn(customMetadata, TRELLIS_METADATA, trellis);
  }
  return {
    ...event,
    actions: actions as Event['actions'],
    timestamp: event.timestamp / 1000,
    ...(customMetadata !== undefined ? { customMetadata } : {}),
  };
}

/**
 * The events (and extras) of a session file; throws InvalidSessionFileError listing problems,
 * each with where it is. Everything is checked before anything is made of the file: its size,
 * its nesting and strings (see core/json-limits), then every event.
 */
export function parseSessionFile(text: string): ParsedSessionFile {
  const refuse = (problem: string): never => {
    throw new InvalidSessionFileError([problem]);
  };
  const tooBig = jsonTextProblem(text, SESSION_FILE_LIMITS, 'the file');
  if (tooBig) refuse(tooBig);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    refuse(`not JSON (${(error as Error).message})`);
  }
  if (!isRecord(parsed)) return refuse(`the file is ${describe(parsed)}, not a JSON object`);
  const hostile = jsonTreeProblem(parsed, SESSION_FILE_LIMITS);
  if (hostile) refuse(hostile);
  const spelling = adkSpelling(parsed);
  const json =
    spelling === 'snake_case' ? (camelizeAdk(parsed) as Record<string, unknown>) : parsed;
  const fail = (problems: string[]): never => {
    throw new InvalidSessionFileError(inSpelling(problems, spelling));
  };
  const shape = shapeProblems(json);
  if (!Array.isArray(json.events)) fail(shape.slice(0, 3));
  const problems = shape.filter((problem) => !problem.startsWith('"events"'));
  let extras = restoreExtras(json.trellis, problems, 'trellis');
  const events: Event[] = [];
  const ids = new Set<string>();
  const invocations = new Set<string>();
  (json.events as unknown[]).forEach((raw, index) => {
    if (problems.length >= MAX_PROBLEMS) return;
    const at = `events[${index}]`;
    const own = trellisMetadataOf(raw);
    if (index === 0 && own?.session !== undefined)
      extras = {
        ...extras,
        ...restoreExtras(own.session, problems, `${at}.customMetadata.trellis.session`),
      };
    const event = restoreEvent(raw, at, problems);
    if (!event || event.partial) return;
    if (ids.has(event.id)) problems.push(`${at}.id ${JSON.stringify(event.id)} appears twice`);
    const missing = missingTarget(event, ids, invocations);
    if (missing)
      problems.push(`${at} is a rewind marker to ${missing}, which is not before it in the file`);
    ids.add(event.id);
    invocations.add(event.invocationId);
    events.push(event);
  });
  if (problems.length > 0) fail(problems);
  const initial = isRecord(json.state) ? initialStateOf(json.state, events) : undefined;
  if (initial) events.unshift(initial);
  return {
    events,
    spelling,
    ...(typeof json.id === 'string' ? { sourceId: json.id } : {}),
    ...extras,
  };
}

/** What is wrong with the top level of a file for it to be ADK's Session JSON. */
function shapeProblems(json: Record<string, unknown>): string[] {
  const problems: string[] = [];
  for (const field of ['id', 'appName', 'userId'] as const) {
    const value = json[field];
    if (value !== undefined && value !== null && typeof value !== 'string')
      problems.push(`"${field}" must be text`);
  }
  if (typeof json.id === 'string' && json.id.length > MAX_FILE_ID)
    problems.push(`"id" is longer than ${MAX_FILE_ID} characters`);
  if (json.state !== undefined && json.state !== null && !isRecord(json.state))
    problems.push('"state" must be an object');
  if (!Array.isArray(json.events))
    problems.unshift(
      json.events === undefined ? 'it has no "events" list' : '"events" must be a list',
    );
  return problems;
}

/**
 * The problems as the file spells its fields: a snake_case file is told `invocation_id`, not
 * `invocationId`, and every refusal says which spelling the file was read in.
 */
function inSpelling(problems: string[], spelling: AdkSpelling): string[] {
  const said =
    spelling === 'snake_case'
      ? problems.map((problem) =>
          problem.replace(/(?<=[.\["]|^)([a-z]+(?:[A-Z][a-z0-9]*)+)\b/g, (name) =>
            name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
          ),
        )
      : problems;
  return [
    ...said,
    spelling === 'snake_case'
      ? "it was read as ADK Python's snake_case (invocation_id, state_delta, …)"
      : 'it was read as camelCase (invocationId, stateDelta, …): ADK Python writes snake_case, also accepted',
  ];
}

/** An event's `customMetadata.trellis`, when it is an object. */
function trellisMetadataOf(raw: unknown): TrellisMetadata | undefined {
  if (!isRecord(raw) || !isRecord(raw.customMetadata)) return undefined;
  const own = ownValue(raw.customMetadata, TRELLIS_METADATA);
  return isRecord(own) ? (own as TrellisMetadata) : undefined;
}

/** The title and agent Trellis keeps of a session (`where` says where the file has them). */
function restoreExtras(raw: unknown, problems: string[], where: string): SessionFileExtras {
  if (raw === undefined || raw === null) return {};
  if (!isRecord(raw)) {
    problems.push(`${where} must be an object`);
    return {};
  }
  const extras: SessionFileExtras = {};
  const { title, agentId } = raw;
  if (title !== undefined && title !== null) {
    if (typeof title !== 'string') problems.push(`${where}.title must be text`);
    else if (title.length > MAX_SESSION_TITLE)
      problems.push(
        `${where}.title is ${title.length.toLocaleString('en-US')} characters long; a title has at most ${MAX_SESSION_TITLE}`,
      );
    else if (title.trim() !== '') extras.title = title.trim();
  }
  if (agentId !== undefined && agentId !== null) {
    if (typeof agentId !== 'string' || agentId.length > MAX_FILE_ID)
      problems.push(`${where}.agentId must be text of at most ${MAX_FILE_ID} characters`);
    else extras.agentId = agentId;
  }
  return extras;
}

/** The target a rewind marker names when it is not among the events before it, else undefined. */
function missingTarget(
  event: Event,
  eventIds: ReadonlySet<string>,
  invocationIds: ReadonlySet<string>,
): string | undefined {
  const { rewindBeforeInvocationId: invocation, rewindAfterEventId: eventId } = event.actions;
  if (invocation !== undefined)
    return invocationIds.has(invocation) ? undefined : `invocation ${JSON.stringify(invocation)}`;
  if (eventId !== undefined)
    return eventIds.has(eventId) ? undefined : `event ${JSON.stringify(eventId)}`;
  return undefined;
}

function restoreEvent(raw: unknown, at: string, problems: string[]): Event | undefined {
  if (!isRecord(raw)) {
    problems.push(`${at} is not an object`);
    return undefined;
  }
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
  } else if (event.timestamp < 1e11) {
    event.timestamp = Math.round(event.timestamp * 1000); // ADK's seconds → milliseconds
  }
  if (event.content !== undefined)
    event.content = restoreContent(event.content, `${at}.content`, problems);
  event.actions = restoreActions(event.actions, `${at}.actions`, problems);
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
  if (!own || (own.session === undefined && own.rewindAfterEventId === undefined)) return event;
  const { session: _session, rewindAfterEventId, ...rest } = own;
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

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
