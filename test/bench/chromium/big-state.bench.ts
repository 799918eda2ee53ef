// Issue 19's third target, in headless Chromium against a production build: a state keeper session
// whose state holds a 1 MB value (a text, or a JSON object) costs the page no more per turn than
// one whose state holds a short text. How: test/bench/chromium/big-state.ts. Figures, never
// assertions; the kinds take turns in an order that rotates by run, each in a fresh browser. Writes
// the "big state" group of test/bench/results.json's chromium part and the tables of BENCHMARKS.md.
//
// Alone: npx vitest run --project bench test/bench/chromium/big-state.bench.ts (a few minutes on a
// quiet machine; BIG_STATE_RUNS and BIG_STATE_TURNS make it shorter).

import { loadavg } from 'node:os';
import { it } from 'vitest';
import { nodeMachine } from '../machine.ts';
import { textTable, updateBenchmarksMd } from '../report.ts';
import { mergeResults, readResults } from '../results-file.ts';
import { BIG_STATE_KINDS, measureBigState, type BigStateSample } from './big-state.ts';
import { GROUPS, bigStateRows } from './rows.ts';
import { buildAndServeApp } from './servers.ts';

const RUNS = Number(process.env.BIG_STATE_RUNS ?? 3);
const TURNS = Number(process.env.BIG_STATE_TURNS ?? 10);

it(
  'Chromium: a 1 MB state value against a small one, per turn',
  { timeout: 3_600_000 },
  async () => {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
    const loadAverage = [loadavg()[0]!];
    const served = await buildAndServeApp();
    const runs: BigStateSample[][] = [];
    try {
      for (let run = 0; run < RUNS; run++) {
        const order = BIG_STATE_KINDS.map(
          (_, i) => BIG_STATE_KINDS[(i + run) % BIG_STATE_KINDS.length]!,
        );
        const samples: BigStateSample[] = [];
        for (const kind of order) samples.push(await measureBigState(served.appUrl, kind, TURNS));
        runs.push(samples);
        const line = samples
          .map((s) => `${s.kind} ${s.taskMs.toFixed(1)} ms, ${Math.round(s.bytes / 1024)} KB`)
          .join(', ');
        console.log(`run ${run + 1} of ${RUNS}: ${line} (${elapsed()})`);
      }
    } finally {
      await served.close();
    }
    loadAverage.push(loadavg()[0]!);
    const results = bigStateRows(runs, loadAverage);
    const date = new Date().toISOString();
    results[0]!.note = `${results[0]!.note}; taken ${date}`;
    // The chromium part's date and machine stay those of chromium.bench.ts's run, if there was one.
    const existing = (await readResults()).groups.chromium;
    const browser = existing?.browser ?? 'Chromium';
    const about = existing
      ? { machine: existing.machine, date: existing.date, browser }
      : { machine: { ...nodeMachine(), runtime: browser }, date, browser };
    const file = await mergeResults('chromium', about, GROUPS.bigState, results);
    await updateBenchmarksMd(file);
    console.log(`(${elapsed()})\n${textTable(results)}`);
  },
);
