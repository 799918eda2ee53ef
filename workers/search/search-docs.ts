// A session's search doc, read from the session as stored: its title, each turn's text (every
// branch, each marked active or rewound), its session state as text, its artifacts' names.
// What must stay true:
// - an update reads only the log entries after the ones the doc holds, unless they hold a rewind
//   marker (the active branch moved): then, or when the log is not the one the doc was read
//   from, the whole log is read again;
// - an answer to a turn's calls (approvals, a question's reply) is no turn: its events' text
//   goes on the turn that made the calls, as History shows it (core/branch-tree.ts isAnswer).

import {
  isUserArtifact,
  textOf,
  type Event,
  type IndexedDbArtifactService,
  type IndexedDbSessionService,
} from '../../src/index.ts';
import { isAnswer } from '../../src/core/branch-tree.ts';
import {
  revOf,
  type SearchDocInput,
  type SearchDocRecord,
  type SearchTurn,
} from '../../src/store/search-store.ts';
import { APP_NAME, USER_ID } from '../sessions/sessions.ts';

/** A turn's text is kept up to this many characters (a pasted book is found by its start). */
export const TURN_TEXT_CHARS = 20_000;
/** A state value's text is kept up to this many characters. */
export const STATE_VALUE_CHARS = 200;
/** State keys kept at most, per session. */
const STATE_KEYS = 200;
/** Log entries read at a time. */
const LOG_PAGE = 500;

export interface DocSources {
  sessions: IndexedDbSessionService;
  artifacts: IndexedDbArtifactService;
}

const isMarker = (event: Event) =>
  event.actions?.rewindBeforeInvocationId !== undefined ||
  event.actions?.rewindAfterEventId !== undefined;

/** A doc read, and whether it was read whole (its turns replace those stored). */
export interface DocRead {
  doc: SearchDocInput;
  whole: boolean;
}

/**
 * The session's doc, brought up to date from `held` when that can be done by reading on;
 * `undefined` when the session is not there.
 */
export async function docOf(
  sources: DocSources,
  sessionId: string,
  title: string,
  held?: SearchDocRecord,
): Promise<DocRead | undefined> {
  const key = { appName: APP_NAME, userId: USER_ID, sessionId };
  const on = held && (await readOn(sources, key, held));
  if (held && on) {
    // Read on: what the new events changed is in them (a turn's append costs one read).
    const state = new Map(held.state);
    const files = new Set(held.artifacts);
    let lastUpdateTime = held.lastUpdateTime;
    for (const event of on.events) {
      lastUpdateTime = Math.max(lastUpdateTime, event.timestamp);
      const delta = event.actions?.stateDelta ?? {};
      for (const name of Object.keys(delta)) {
        if (SCOPED.test(name)) continue;
        const value = delta[name];
        if (value === null) state.delete(name);
        else if (state.has(name) || state.size < STATE_KEYS) state.set(name, valueText(value));
      }
      for (const name of Object.keys(event.actions?.artifactDelta ?? {}))
        if (!isUserArtifact(name)) files.add(name);
    }
    const doc: SearchDocInput = {
      rev: revOf(lastUpdateTime, on.log.seq, title),
      sessionId,
      title,
      seq: on.log.seq,
      lastUpdateTime,
      turns: on.log.turns,
      answers: [...on.log.answers],
      state: [...state],
      artifacts: [...files],
    };
    return { doc, whole: false };
  }
  const session = await sources.sessions.getSession({ ...key, config: { numRecentEvents: 0 } });
  if (!session) return undefined;
  const log = await readLog(sources, key);
  if (!log) return undefined;
  const files = await sources.artifacts.listArtifactKeys(key);
  const doc: SearchDocInput = {
    rev: revOf(session.lastUpdateTime, log.seq, title),
    sessionId,
    title,
    seq: log.seq,
    lastUpdateTime: session.lastUpdateTime,
    turns: log.turns,
    answers: [...log.answers],
    state: stateText(session.state),
    artifacts: files.filter((name) => !isUserArtifact(name)),
  };
  return { doc, whole: true };
}

/** Keys of app, user and temp state: not the session's own. */
const SCOPED = /^(app|user|temp):/;

interface Log {
  seq: number;
  turns: SearchTurn[];
  answers: Map<string, string>;
}

type Key = { appName: string; userId: string; sessionId: string };

/**
 * The doc's log read on from where it stopped, with the events read; `undefined` when it must be
 * read whole (a marker moved the active branch, or the log is not the one it was read from).
 */
async function readOn(sources: DocSources, key: Key, held: SearchDocRecord) {
  const log: Log = {
    seq: held.seq,
    turns: held.turns.map((turn) => ({ ...turn })),
    answers: new Map(held.answers ?? []),
  };
  const events: Event[] = [];
  return (await read(sources, key, log, events)) ? { log, events } : undefined;
}

async function readLog(sources: DocSources, key: Key): Promise<Log | undefined> {
  const log: Log = { seq: 0, turns: [], answers: new Map() };
  return (await read(sources, key, log)) ? log : undefined;
}

/**
 * Reads the log from `log.seq` into `log`; reading on (`on`: where the events read go), false
 * when that cannot keep it true.
 */
async function read(sources: DocSources, key: Key, log: Log, on?: Event[]): Promise<boolean> {
  const byId = new Map(log.turns.map((turn) => [turn.invocationId, turn]));
  for (;;) {
    const page = await sources.sessions.listEvents({ ...key, fromSeq: log.seq, limit: LOG_PAGE });
    if (!page || page.eventCount < log.seq) return false;
    for (const { event, active } of page.entries) {
      if (on && isMarker(event)) return false;
      on?.push(event);
      log.seq += 1;
      if (event.partial || isMarker(event)) continue;
      let turn = byId.get(log.answers.get(event.invocationId) ?? event.invocationId);
      if (!turn && isAnswer(event) && log.turns.length > 0) {
        turn = log.turns[log.turns.length - 1]!;
        log.answers.set(event.invocationId, turn.invocationId);
      }
      if (!turn) {
        turn = { invocationId: event.invocationId, active, time: event.timestamp, text: '' };
        byId.set(turn.invocationId, turn);
        log.turns.push(turn);
      }
      turn.active ||= active;
      const text = textOf(event.content);
      if (text && turn.text.length < TURN_TEXT_CHARS)
        turn.text = (turn.text ? `${turn.text}\n${text}` : text).slice(0, TURN_TEXT_CHARS);
    }
    if (page.entries.length === 0 || log.seq >= page.eventCount) return true;
  }
}

/** Session-scoped keys (not `app:`, `user:`, `temp:`) with their values as text, clipped. */
function stateText(state: Record<string, unknown>): [string, string][] {
  const pairs: [string, string][] = [];
  for (const key of Object.keys(state)) {
    if (pairs.length === STATE_KEYS) break;
    if (SCOPED.test(key)) continue;
    pairs.push([key, valueText(state[key])]);
  }
  return pairs;
}

function valueText(value: unknown): string {
  if (typeof value === 'string') return value.slice(0, STATE_VALUE_CHARS);
  try {
    return (JSON.stringify(value) ?? String(value)).slice(0, STATE_VALUE_CHARS);
  } catch {
    return '';
  }
}
