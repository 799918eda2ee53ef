// Search across sessions (issue 33) in headless Chromium, on the browser's IndexedDB (the page
// of test/bench/search-harness/): 1,000 sessions of 100 turns written straight into the search
// store; a new tab's first search with the index built from the docs, and with the parts it
// needs loaded from their snapshots (target ≤ 300 ms); searches as the user types, in a tab that
// loads parts as the words need them (first results ≤ 50 ms after a keystroke); a turn's
// append with its indexing against one without, in pairs (≤ 1.10×); and appends at a
// workflow's pace with the index following in the background or not at all. Figures, never assertions (but that the planted word is found). Writes the
// "search" group of results.json's chromium part.
//
// Alone: npx vitest run --project bench test/bench/search.bench.ts (a few minutes).

import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { launch } from '../e2e/browser.ts';
import { serveHarness } from '../e2e/markdown-harness/serve.ts';
import { BUCKETS } from '../../workers/search/search-index.ts';
import { nodeMachine } from './machine.ts';
import { summarize } from './measure.ts';
import { textTable, updateBenchmarksMd } from './report.ts';
import { figure, mergeChromiumGroup } from './results-file.ts';

const GROUP = 'search';
const SESSIONS = 1_000;
const TURNS = 100;
const RUNS = 5;
const APPENDS = 40;
const QUERIES = ['quetzal', 'kalo mine', 'sapedu', 'torabel vi'];

it('Chromium: search across 1,000 sessions of 100 turns', { timeout: 900_000 }, async () => {
  const harness = await serveHarness(fileURLToPath(new URL('./search-harness/', import.meta.url)));
  const browser = await launch();
  try {
    const { page } = browser;
    await page.goto(harness.url);
    await page.waitForFunction(() => 'searchHarness' in window);
    const seeded = await page.evaluate(([n, turns]) => window.searchHarness.seed(n, turns), [
      SESSIONS,
      TURNS,
    ] as const);
    console.log(`seeded in ${Math.round(seeded.ms)} ms, ${seeded.chars} characters of turns`);

    // A tab with no snapshot builds its index from every doc; then saves it.
    const built = await page.evaluate(() => window.searchHarness.firstSearch('built', 'quetzal'));
    expect(built.found).toBe(1);
    const saved = await page.evaluate(() => window.searchHarness.save('built'));
    console.log(
      `built ${Math.round(built.ms)} ms; saved ${Math.round(saved.ms)} ms, ${saved.chars} chars, largest part ${saved.largest}`,
    );

    // New tabs load the parts their first search needs from their snapshots: each query in a
    // tab of its own.
    const loads: number[] = [];
    for (let run = 0; run < RUNS; run++)
      for (const query of QUERIES) {
        const first = await page.evaluate(
          ([name, words]) => window.searchHarness.firstSearch(name, words),
          [`loaded-${run}-${query}`, query] as const,
        );
        if (query === 'quetzal') expect(first.found).toBe(1);
        loads.push(first.ms);
      }

    const typed: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { ms } = await page.evaluate(
        (queries) => window.searchHarness.typeSearches('typing', queries),
        QUERIES,
      );
      typed.push(...ms);
    }

    const ratios: number[] = [];
    const indexed: number[] = [];
    const plain: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const pairs = await page.evaluate(
        ([real, count, first]) => window.searchHarness.appends('typing', real, count, first),
        [seeded.real, APPENDS, TURNS + run * APPENDS] as const,
      );
      const sum = (ms: number[]) => ms.reduce((a, b) => a + b, 0);
      ratios.push(sum(pairs.indexed) / sum(pairs.plain));
      indexed.push(sum(pairs.indexed) / APPENDS);
      plain.push(sum(pairs.plain) / APPENDS);
    }

    // The same appends at a workflow's pace, the room indexing beside them or not there.
    const paced: number[] = [];
    let next = TURNS + RUNS * APPENDS;
    for (let run = 0; run < RUNS; run++) {
      const sums = { on: 0, off: 0 };
      for (const listening of run % 2 ? [true, false] : [false, true]) {
        const ms = await page.evaluate(
          ([real, count, first, on]) =>
            window.searchHarness.paced('typing', real, count, first, on),
          [seeded.real, APPENDS, next, listening] as const,
        );
        next += APPENDS;
        sums[listening ? 'on' : 'off'] = ms.reduce((a, b) => a + b, 0);
      }
      paced.push(sums.on / sums.off);
    }

    const browserName = `Chromium ${browser.context.browser()?.version() ?? ''}`.trim();
    const params = { sessions: SESSIONS, turns: TURNS };
    const load = summarize(loads);
    const keystroke = summarize(typed);
    const ratio = summarize(ratios);
    const results = [
      figure(
        GROUP,
        'First search of a new tab, index parts from their snapshots',
        { ...params, measured: 'ms' },
        'ms',
        load,
        {
          target: { text: '≤ 300 ms', met: load.median <= 300 },
          note: `${QUERIES.length} queries, each the first of a tab of its own, ${RUNS} times; ${BUCKETS} parts, ${(saved.chars / 1e6).toFixed(1)} M characters in all, the largest ${(saved.largest / 1e6).toFixed(2)} M; taken on ${browserName}`,
        },
      ),
      figure(
        GROUP,
        'First search of a new tab, index built from the docs',
        { ...params, measured: 'ms' },
        'ms',
        summarize([built.ms]),
      ),
      figure(
        GROUP,
        'Search after a keystroke',
        { ...params, measured: 'ms per search' },
        'ms',
        keystroke,
        {
          target: { text: '≤ 50 ms', met: keystroke.median <= 50 },
          note: `${QUERIES.length} queries typed from their second letter, ${RUNS} times`,
        },
      ),
      figure(
        GROUP,
        'Append of a turn with its indexing ÷ without',
        { ...params, measured: 'ratio of sums' },
        '×',
        ratio,
        {
          target: { text: '≤ 1.10×', met: ratio.median <= 1.1 },
          note: `${APPENDS} turns of 2 events each way per run, in alternating pairs; ms per turn: indexed ${summarize(indexed).median.toFixed(1)}, plain ${summarize(plain).median.toFixed(1)}`,
        },
      ),
      figure(
        GROUP,
        'Append of a turn while the index follows in the background ÷ no index',
        { ...params, measured: 'ratio of sums' },
        '×',
        summarize(paced),
        {
          note: `${APPENDS} turns of 2 events one right after the other, each heard by the search room (indexed after a 30 ms quiet, as the worker does after a run) or with no room, ${RUNS} runs: what indexing does to an append's own time`,
        },
      ),
    ];
    const machine = { ...nodeMachine(), runtime: browserName };
    await updateBenchmarksMd(await mergeChromiumGroup(browserName, machine, GROUP, results));
    console.log(`${browserName}\n${textTable(results)}`);
  } finally {
    await browser.close();
    await harness.close();
  }
});
