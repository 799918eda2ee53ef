// The bench's worker: the app's runtime code (AppRuntime, the IndexedDB services, a Runner as
// the app builds it) beside raw `idb` baselines, in the same worker and the same origin, as
// the app's own worker runs them. The page drives it through Comlink and times what the page
// sees; timings taken here are the worker's share.

import { expose } from 'comlink';
import { createStateKeeper } from '../../../../src/demos/state-keeper.ts';
import {
  IndexedDbArtifactService,
  IndexedDbSessionService,
  Runner,
  type Session,
} from '../../../../src/index.ts';
import { IndexedDbAppStore } from '../../../../src/store/app-store.ts';
import { Stores, sessionRange } from '../../../../src/store/database.ts';
import { AppRuntime } from '../../../../workers/app.ts';
import { APP_NAME, USER_ID, newMeta } from '../../../../workers/sessions/sessions.ts';
import { OPENING } from '../../../../workers/protocol.ts';
import { webLocks } from '../../../../workers/runs/session-locks.ts';
import { APPEND_STEPS, appendSteps, type AppendStep } from './append-steps.ts';
import { checkBulkWrite, generateLog, writeLogInBulk } from './seed.ts';
import { turnEvents } from './turns.ts';

export interface SeededSession {
  sessionId: string;
  length: number;
  firstTurnId: string;
  lastTurnId: string;
  /** Making the log in memory; writing it to IndexedDB. */
  generateMs: number;
  writeMs: number;
}

const sessions = new IndexedDbSessionService();
const artifacts = new IndexedDbArtifactService();
const store = new IndexedDbAppStore();
/** The runner the app builds for the state keeper (workers/app.ts). */
const runner = new Runner({
  appName: APP_NAME,
  agent: createStateKeeper(),
  sessionService: sessions,
  artifactService: artifacts,
  resumabilityConfig: { isResumable: true },
});
const newRuntime = () =>
  new AppRuntime({ locks: webLocks(navigator.locks), broadcast: () => undefined });
/** The runtime of a tab that has the session open: its log cache is warm. */
const live = newRuntime();
const key = (sessionId: string) => ({ appName: APP_NAME, userId: USER_ID, sessionId });

let appendSession: Promise<Session> | undefined;
/** Events a step appends before the next step takes its turn (see appendRun). */
const APPEND_SLICE = 20;

const time = async <T>(work: () => Promise<T>): Promise<[number, T]> => {
  const start = performance.now();
  const result = await work();
  return [performance.now() - start, result];
};

const eventsFor = (count: number) =>
  Array.from({ length: Math.ceil(count / 4) }, (_, turn) => turnEvents(turn))
    .flat()
    .slice(0, count);

const api = {
  /** Throws unless the bulk seed writes what importSession writes. */
  checkBulkWrite: () => checkBulkWrite(sessions),

  /** A session of `length` events, bulk-written (see seed.ts), with the app's session record. */
  async seed(length: number): Promise<SeededSession> {
    const [generateMs, { events, activeTurnIds }] = await time(() => generateLog(length));
    const sessionId = crypto.randomUUID();
    const db = await sessions.openDatabase();
    const [writeMs] = await time(() => writeLogInBulk(db, sessionId, events));
    await store.putSessionMeta(newMeta(sessionId, `${length} events`, 'state-keeper'));
    return {
      sessionId,
      length,
      firstTurnId: activeTurnIds[0]!,
      lastTurnId: activeTurnIds.at(-1)!,
      generateMs,
      writeMs,
    };
  },

  /**
   * One run of every append step (append-steps.ts), `count` events each; the same event shapes
   * for all. Each step appends as the runner does: one awaited call per event. The steps take
   * turns by slices of APPEND_SLICE events, in an order that rotates by slice and run, so that
   * a burst of load from elsewhere on the machine falls on all of them alike; a step's time is
   * the sum of its slices.
   */
  async appendRun(count: number, run: number): Promise<Record<AppendStep, number>> {
    appendSession ??= sessions.createSession({ appName: APP_NAME, userId: USER_ID });
    const steps = await appendSteps(sessions, await appendSession);
    const ms = Object.fromEntries(APPEND_STEPS.map((step) => [step, 0])) as Record<
      AppendStep,
      number
    >;
    const events = new Map(APPEND_STEPS.map((step) => [step, eventsFor(count)]));
    for (let from = 0, slice = 0; from < count; from += APPEND_SLICE, slice++) {
      for (let i = 0; i < APPEND_STEPS.length; i++) {
        const step = APPEND_STEPS[(i + run + slice) % APPEND_STEPS.length]!;
        const part = events.get(step)!.slice(from, from + APPEND_SLICE);
        ms[step] += (await time(() => steps[step](part)))[0];
      }
    }
    return ms;
  },

  /**
   * What a page load does to show a session: a fresh runtime (nothing cached), the Workbench's
   * openSessionSummary.
   */
  async openCold(sessionId: string) {
    const [workerMs, opening] = await time(() =>
      newRuntime().openSessionSummary(sessionId, OPENING),
    );
    return { workerMs, opening };
  },

  /** Raw `getAll` of every event of the session. */
  async rawGetAll(sessionId: string) {
    const db = await sessions.openDatabase();
    const { appName, userId } = key(sessionId);
    const [ms, events] = await time(() =>
      db.getAll(Stores.events, sessionRange(appName, userId, sessionId)),
    );
    return { ms, count: events.length };
  },

  /** runner.rewindAsync before `invocationId`, as the app's rewind does under its lock. */
  async rewindRunner(sessionId: string, invocationId: string) {
    const [ms] = await time(() =>
      runner.rewindAsync({ userId: USER_ID, sessionId, rewindBeforeInvocationId: invocationId }),
    );
    return ms;
  },

  /** The open tab's runtime: the app's rewind action (lock, meta, runner). */
  liveRewind: (sessionId: string, invocationId: string) =>
    live.rewinds.rewind(sessionId, invocationId),
  /** The open tab's runtime: what the page asks after a change (its opening again). */
  liveOpen: (sessionId: string) => live.openSessionSummary(sessionId, OPENING),
};

export type BenchWorkerApi = typeof api;

expose(api);
