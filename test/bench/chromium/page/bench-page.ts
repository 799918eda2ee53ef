// The bench page: drives the bench worker through Comlink and times what the page sees, the
// structured clone of what crosses included, and what the UI derives from a session before it
// can draw it (sessionView of the opening: chat items, approvals, history rows, state groups).
// Node calls `window.trellisBench` through page.evaluate; it only times, never judges.

import { wrap } from 'comlink';
import { sessionView } from '../../../../src/ui/workbench/session-view.ts';
import type { BenchWorkerApi, SeededSession } from './bench-worker.ts';

const worker = wrap<BenchWorkerApi>(
  new Worker(new URL('./bench-worker.ts', import.meta.url), { type: 'module', name: 'bench' }),
);

export interface OpenSample {
  length: number;
  /**
   * The app's open, asking the worker → the view derived: what a page load pays before drawing
   * the session (openSessionSummary with the Workbench's limits: the last 50 active events, the
   * last 50 turns of the active path with their branches).
   */
  totalMs: number;
  /** The worker's openSessionSummary alone (fresh runtime: nothing cached). */
  workerMs: number;
  /** The rest of the round trip: mostly the structured clone of the opening. */
  transferMs: number;
  /** sessionView of the opening on the page: chat items, approvals, history rows, state. */
  viewMs: number;
  /** Raw `getAll` of the session's events in the worker. */
  rawMs: number;
  /** History rows drawn. */
  rows: number;
}

export interface RewindSample {
  length: number;
  /** runner.rewindAsync before the last turn, in the worker. */
  lastTurnMs: number;
  /** runner.rewindAsync before the first turn, in the worker. */
  firstTurnMs: number;
  /** The app's rewind as the page sees it: rewind, openSessionSummary again, view. */
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
        const { workerMs, opening } = await worker.openCold(sessionId);
        const received = performance.now();
        const view = sessionView(opening);
        const end = performance.now();
        const raw = await worker.rawGetAll(sessionId);
        return {
          length,
          totalMs: end - start,
          workerMs,
          transferMs: received - start - workerMs,
          viewMs: end - received,
          rawMs: raw.ms,
          rows: view.history.length,
        };
      }),
    );
  },

  async rewind(seeded: SeededSession[], runs: number, warmup: number): Promise<RewindSample[][]> {
    // The open tab already shows each session (untimed), as after a page load.
    for (const { sessionId } of seeded) sessionView(await worker.liveOpen(sessionId));
    return measuredRuns(runs, warmup, (run) =>
      eachInTurn(seeded, run, async (session): Promise<RewindSample> => {
        const { sessionId, length, firstTurnId, lastTurnId } = session;
        const lastTurnMs = await worker.rewindRunner(sessionId, lastTurnId);
        const firstTurnMs = await worker.rewindRunner(sessionId, firstTurnId);
        // What Workbench.rewind does: the rewind, then reload() (the opening read again), then
        // the panels derive their view from it.
        const start = performance.now();
        await worker.liveRewind(sessionId, lastTurnId);
        sessionView(await worker.liveOpen(sessionId));
        const uiMs = performance.now() - start;
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
