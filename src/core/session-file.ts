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

import { adkSpelling, camelizeAdk, type AdkSpelling } from './adk-case.ts';
import { TRELLIS_METADATA } from './artifact-payloads.ts';
import { InvalidSessionFileError } from './errors.ts';
import type { Event } from './event.ts';
import { newInvocationId } from './ids.ts';
import { SESSION_FILE_LIMITS, jsonTextProblem, jsonTreeProblem } from './json-limits.ts';
import { compactionToFile } from './session-file-compaction.ts';
import { ownValue, setOwn } from './state.ts';
import {
  MAX_FILE_ID,
  isRecord,
  restoreEvent,
  timeUnitOf,
  trellisMetadataOf,
  type SessionFileExtras,
  type TrellisMetadata,
} from './session-file-event.ts';
import { initialStateOf } from './session-file-state.ts';

/** The format name of the top-level `trellis` field older Trellis exports carried. */
export const SESSION_FILE_FORMAT = 'trellis-session';

export type { SessionFileExtras, TrellisMetadata } from './session-file-event.ts';

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
export { MAX_ARTIFACT_VERSION, MAX_FILE_ID } from './session-file-event.ts';

/**
 * The session as ADK's Session JSON: camelCase, timestamps in seconds, no field ADK does not
 * know at the top or in an event's actions; Trellis's own data in `customMetadata.trellis`.
 */
export function toSessionFile(
  session: Omit<SessionFile, 'trellis'>,
  extras: SessionFileExtras = {},
): string {
  const events = session.events.map((event, index) =>
    toFileEvent(event, index === 0 ? extras : undefined),
  );
  if (events.length === 0 && hasExtras(extras)) events.push(carrierEvent(session, extras));
  const file: Omit<SessionFile, 'trellis'> = {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events,
    lastUpdateTime: session.lastUpdateTime / 1000,
  };
  return JSON.stringify(file, null, 2);
}

function hasExtras(extras: SessionFileExtras | undefined): extras is SessionFileExtras {
  return extras !== undefined && (extras.title !== undefined || extras.agentId !== undefined);
}

/**
 * The event that carries the title and agent of a session with no events: no content and no
 * actions, so ADK keeps it as a no-op, and marked `sessionOnly` so that Trellis drops it again.
 */
function carrierEvent(
  session: Pick<SessionFile, 'id' | 'lastUpdateTime'>,
  extras: SessionFileExtras,
): Event {
  const own: TrellisMetadata = { session: { ...extras }, sessionOnly: true };
  return {
    id: `${session.id}-session`.slice(0, MAX_FILE_ID),
    invocationId: newInvocationId(),
    author: 'user',
    timestamp: session.lastUpdateTime / 1000,
    actions: { stateDelta: {}, artifactDelta: {} },
    customMetadata: { [TRELLIS_METADATA]: own },
  };
}

function toFileEvent(event: Event, session: SessionFileExtras | undefined): Event {
  const { rewindAfterEventId, ...actions } = event.actions;
  const own: TrellisMetadata = {};
  if (hasExtras(session)) own.session = { ...session };
  if (rewindAfterEventId !== undefined) own.rewindAfterEventId = rewindAfterEventId;
  if (actions.compaction) {
    const file = compactionToFile(actions.compaction);
    actions.compaction = file.compaction;
    if (file.ids) own.compaction = file.ids;
  }
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
    throw new InvalidSessionFileError(inSpelling(problems, spelling, json));
  };
  const shape = shapeProblems(json);
  if (!Array.isArray(json.events)) fail(shape.slice(0, 3));
  const problems = shape.filter((problem) => !problem.startsWith('"events"'));
  let extras = restoreExtras(json.trellis, problems, 'trellis');
  const events: Event[] = [];
  const ids = new Set<string>();
  const invocations = new Set<string>();
  const unit = timeUnitOf(json.events as unknown[]);
  (json.events as unknown[]).forEach((raw, index) => {
    if (problems.length >= MAX_PROBLEMS) return;
    const at = `events[${index}]`;
    const own = trellisMetadataOf(raw);
    if (index === 0 && own?.session !== undefined)
      extras = {
        ...extras,
        ...restoreExtras(own.session, problems, `${at}.customMetadata.trellis.session`),
      };
    const event = restoreEvent(raw, at, problems, unit);
    if (!event || event.partial) return;
    if (index === 0 && own?.sessionOnly === true) return; // it only carried the extras
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

/** How many problems a refusal names; the rest are counted. */
const PROBLEMS_NAMED = 3;

/**
 * The problems as the file spells its fields: a snake_case file is told `invocation_id`, not
 * `invocationId`. A refusal names the first few (a file of another kind would otherwise list a
 * problem for each event). It says which spelling the file was read in only when that may
 * explain a problem: a field the file lacks (it may be there under another name). A title too
 * long or a value of the wrong type has nothing to do with spelling.
 */
function inSpelling(all: string[], spelling: AdkSpelling, json: Record<string, unknown>): string[] {
  const problems = all.slice(0, PROBLEMS_NAMED);
  if (all.length > PROBLEMS_NAMED)
    problems.push(`and ${all.length - PROBLEMS_NAMED} more problem(s) after those`);
  const said =
    spelling === 'snake_case'
      ? problems.map((problem) =>
          problem.replace(/(?<=[.\["]|^)([a-z]+(?:[A-Z][a-z0-9]*)+)\b/g, (name) =>
            name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
          ),
        )
      : problems;
  if (!all.some((problem) => lacksField(problem, json))) return said;
  return [
    ...said,
    spelling === 'snake_case'
      ? "it was read as ADK Python's snake_case (invocation_id, state_delta, …)"
      : 'it was read as camelCase (invocationId, stateDelta, …): ADK Python writes snake_case, also accepted',
  ];
}

/** A problem's place in the file: `events[3].actions.stateDelta`, `"id"`. */
const PROBLEM_PATH = /^(?:"(\w+)"|(events(?:\[\d+\]|\.\w+)+))/;

/** Whether a problem is about a field that the file does not have at the place it names. */
function lacksField(problem: string, json: Record<string, unknown>): boolean {
  if (problem.startsWith('it has no "events"')) return true;
  const path = PROBLEM_PATH.exec(problem);
  if (!path) return false;
  const steps = path[1] !== undefined ? [path[1]] : path[2]!.split(/[.[\]]+/).filter(Boolean);
  let value: unknown = json;
  for (const step of steps) {
    if (typeof value !== 'object' || value === null || !Object.hasOwn(value, step)) return true;
    value = (value as Record<string, unknown>)[step];
  }
  return value === undefined || value === null;
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

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}
