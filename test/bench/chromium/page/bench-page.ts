// The bench page: drives the bench worker through Comlink and times what the page sees, the
// structured clone of every event included, and what the UI derives from a session before it
// can draw it (sessionView: active events, branch tree, history rows, chat items, approvals).
// Node calls `window.trellisBench` through page.evaluate; it only times, never judges.

import { wrap } from 'comlink';
import type { SessionSnapshot } from '../../../../workers/protocol.ts';
import { sessionView } from '../../../../src/ui/session-view.ts';
import type { BenchWorkerApi, SeededSession } from './bench-worker.ts';

const worker = wrap<BenchWorkerApi>(
  new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module', name: 'bench' }),
);

export interface OpenSample {
  length: number;
  /** Asking the worker → the view derived: what a page load pays before drawing the session. */
  totalMs: number;
  /** The worker's openSession alone (fresh runtime: cold log cache). */
  workerMs: number;
  /** The rest of the round trip: mostly the structured clone of the snapshot. */
  transferMs: number;
  /** sessionView on the page: active events, branch tree, history rows, chat items. */
  viewMs: number;
  /** Raw `getAll` of the session's events in the worker. */
  rawMs: number;
  /** Prototype "after": getSession with numRecentEvents 50 (fresh service). */
  recentMs: number;
  /**
   * The bounded open: asking a fresh runtime's openSessionSummary → received (state, last 50
   * active events, last 50 turns of the active path with their branches). The page's views are
   * not yet built from it.
   */
  summaryMs: number;
  /** Its worker share. */
  summaryWorkerMs: number;
  turns: number;
}

export interface RewindSample {
  length: number;
  /** runner.rewindAsync before the last turn, in the worker. */
  lastTurnMs: number;
  /** runner.rewindAsync before the first turn, in the worker. */
  firstTurnMs: number;
  /** The app's rewind as the page sees it: rewind, openSession from the known events, view. */
  uiMs: number;
}

const measuredRuns = async <T>(runs: number, warmup: number, once: (run: number) => Promise<T>) => {
  const samples: T[] = [];
  for (let run = 0; run < warmup + runs; run++) {
    const sample = await once(run);
    if (run >= warmup) samples.push(sample);
  }
  return samples;
};

/**
 * One sample per item, taken in an order that turns run by run (so that no item always comes
 * first), returned in the items' order: samples of one run are pairs.
 */
const eachInTurn = async <I, T>(
  items: readonly I[],
  run: number,
  once: (item: I) => Promise<T>,
) => {
  const samples: T[] = new Array(items.length);
  for (let k = 0; k < items.length; k++) {
    const i = (k + run) % items.length;
    samples[i] = await once(items[i]!);
  }
  return samples;
};

const bench = {
  /** Seeds a session of each length, after checking the bulk writer against importSession. */
  async seed(lengths: number[]) {
    const check = await worker.checkBulkWrite();
    const seeded: SeededSession[] = [];
    for (const length of lengths) seeded.push(await worker.seed(length));
    return { check, seeded };
  },

  append(count: number, runs: number, warmup: number) {
    return measuredRuns(runs, warmup, (run) => worker.appendRun(count, run));
  },

  /** One sample per session per run (see eachInTurn). */
  open(seeded: SeededSession[], runs: number, warmup: number): Promise<OpenSample[][]> {
    return measuredRuns(runs, warmup, (run) =>
      eachInTurn(seeded, run, async ({ sessionId, length }): Promise<OpenSample> => {
        const start = performance.now();
        const { workerMs, snapshot } = await worker.openCold(sessionId);
        const received = performance.now();
        const view = sessionView(snapshot);
        const end = performance.now();
        const raw = await worker.rawGetAll(sessionId);
        const recent = await worker.openRecent(sessionId, 50);
        const summaryStart = performance.now();
        const summary = await worker.openSummaryCold(sessionId);
        const summaryMs = performance.now() - summaryStart;
        return {
          length,
          totalMs: end - start,
          workerMs,
          transferMs: received - start - workerMs,
          viewMs: end - received,
          rawMs: raw.ms,
          recentMs: recent.ms,
          summaryMs,
          summaryWorkerMs: summary.workerMs,
          turns: view.tree.turns.length,
        };
      }),
    );
  },

  async rewind(seeded: SeededSession[], runs: number, warmup: number): Promise<RewindSample[][]> {
    // The open tab already shows each session (untimed): its page has the log, its runtime's
    // cache is warm, as after a page load.
    const logs = new Map<string, SessionSnapshot['events']>();
    for (const { sessionId } of seeded) {
      const snapshot = await worker.liveOpen(sessionId, 0);
      sessionView(snapshot);
      logs.set(sessionId, snapshot.events);
    }
    return measuredRuns(runs, warmup, (run) =>
      eachInTurn(seeded, run, async (session): Promise<RewindSample> => {
        const { sessionId, length, firstTurnId, lastTurnId } = session;
        const lastTurnMs = await worker.rewindRunner(sessionId, lastTurnId);
        const firstTurnMs = await worker.rewindRunner(sessionId, firstTurnId);
        // What Workbench.rewind does: the rewind, then reload() (the new events only), then the
        // panels derive their view from the whole log again.
        const start = performance.now();
        await worker.liveRewind(sessionId, lastTurnId);
        const known = logs.get(sessionId)!;
        const fresh = await worker.liveOpen(sessionId, known.length);
        const events = [...known, ...fresh.events];
        sessionView({ ...fresh, events });
        const uiMs = performance.now() - start;
        logs.set(sessionId, events);
        return { length, lastTurnMs, firstTurnMs, uiMs };
      }),
    );
  },
};

export type BenchPage = typeof bench;

declare global {
  interface Window {
    trellisBench: BenchPage;
  }
}

window.trellisBench = bench;
