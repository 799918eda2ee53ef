// Sessions as JSON files: what export writes and import accepts. The format is ADK's session
// JSON (camelCase: `{ id, appName, userId, state, events, lastUpdateTime }`), so a session
// exported by ADK's API server imports here and the other way round; Trellis adds its own
// fields under `trellis`.
//
// Import is strict about what it needs and lenient about the rest (as excalidraw's restore):
// every problem is reported with where it is, ADK's conventions (timestamps in seconds, `null`
// for unset fields) are upgraded, and fields it does not know are kept.

import type { Content, Part } from './content.ts';
import { InvalidSessionFileError } from './errors.ts';
import type { Event } from './event.ts';
import { newEventId } from './ids.ts';

export const SESSION_FILE_FORMAT = 'trellis-session';

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
  trellis?: { format: typeof SESSION_FILE_FORMAT; version: 1 } & SessionFileExtras;
}

export interface ParsedSessionFile extends SessionFileExtras {
  /** The events to import, in order; partial ones left out. */
  events: Event[];
  /** The id the session had where it came from. */
  sourceId?: string;
}

const MAX_PROBLEMS = 12;

export function toSessionFile(
  session: Omit<SessionFile, 'trellis'>,
  extras: SessionFileExtras = {},
): string {
  const file: SessionFile = {
    id: session.id,
    appName: session.appName,
    userId: session.userId,
    state: session.state,
    events: session.events,
    lastUpdateTime: session.lastUpdateTime,
    trellis: { format: SESSION_FILE_FORMAT, version: 1, ...extras },
  };
  return JSON.stringify(file, null, 2);
}

/** The events (and extras) of a session file; throws InvalidSessionFileError listing problems. */
export function parseSessionFile(text: string): ParsedSessionFile {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new InvalidSessionFileError([`not JSON (${(error as Error).message})`]);
  }
  if (!isRecord(json)) throw new InvalidSessionFileError(['the file is not a JSON object']);
  if (!Array.isArray(json.events)) throw new InvalidSessionFileError(['it has no "events" list']);
  const problems: string[] = [];
  const events: Event[] = [];
  const ids = new Set<string>();
  json.events.forEach((raw, index) => {
    if (problems.length >= MAX_PROBLEMS) return;
    const event = restoreEvent(raw, `events[${index}]`, problems);
    if (!event || event.partial) return;
    if (ids.has(event.id))
      problems.push(`events[${index}].id ${JSON.stringify(event.id)} appears twice`);
    ids.add(event.id);
    events.push(event);
  });
  if (problems.length > 0) throw new InvalidSessionFileError(problems);
  const extras = isRecord(json.trellis) ? json.trellis : {};
  return {
    events,
    ...(typeof json.id === 'string' ? { sourceId: json.id } : {}),
    ...(typeof extras.title === 'string' ? { title: extras.title } : {}),
    ...(typeof extras.agentId === 'string' ? { agentId: extras.agentId } : {}),
  };
}

function restoreEvent(raw: unknown, at: string, problems: string[]): Event | undefined {
  if (!isRecord(raw)) {
    problems.push(`${at} is not an object`);
    return undefined;
  }
  const event = withoutNulls(raw);
  const before = problems.length;
  if (typeof event.invocationId !== 'string' || event.invocationId === '') {
    problems.push(`${at}.invocationId must be a non-empty string`);
  }
  if (typeof event.author !== 'string' || event.author === '')
    problems.push(`${at}.author must be a non-empty string`);
  if (event.id === undefined) event.id = newEventId();
  else if (typeof event.id !== 'string' || event.id === '')
    problems.push(`${at}.id must be a non-empty string`);
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
  return problems.length === before ? (event as unknown as Event) : undefined;
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
    !Object.values(actions.artifactDelta).every(
      (version) => Number.isInteger(version) && (version as number) >= 0,
    )
  ) {
    problems.push(`${at}.artifactDelta must map file names to versions`);
  }
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

/** ADK writes `null` for every unset field: here an unset field is an absent one. */
function withoutNulls(raw: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) if (value !== null) kept[key] = value;
  return kept;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}
