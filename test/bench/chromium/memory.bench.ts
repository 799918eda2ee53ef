// Memory (issue 32) in headless Chromium: IndexedDbMemoryService on the browser's IndexedDB (the
// harness page of test/e2e/memory-harness/), over the same 1,000 remembered sessions as the Node
// bench (test/bench/memory-corpus.ts): a search with the service's index held, and the first
// search of a new service (its index built from the stored records, as in a tab just opened).
// Figures, never assertions. Writes the "memory search" group of results.json's chromium part.
//
// Alone: npx vitest run --project bench test/bench/chromium/memory.bench.ts (about a minute).

import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { launch } from '../../e2e/browser.ts';
import { serveHarness } from '../../e2e/markdown-harness/serve.ts';
import { nodeMachine } from '../machine.ts';
import { MEMORIES_PER_SESSION } from '../memory-corpus.ts';
import { summarize } from '../measure.ts';
import { textTable, updateBenchmarksMd } from '../report.ts';
import { figure, mergeResults, readResults } from '../results-file.ts';

const GROUP = 'memory search';
const SESSIONS = 1_000;
const RUNS = 7;
const TARGET_MS = 20;

it('Chromium: memory search over 1,000 remembered sessions', { timeout: 600_000 }, async () => {
  const harness = await serveHarness(
    fileURLToPath(new URL('../../e2e/memory-harness/', import.meta.url)),
  );
  const browser = await launch();
  try {
    const { page } = browser;
    await page.goto(harness.url);
    await page.waitForFunction(() => 'memoryHarness' in window);
    const seedMs = await page.evaluate((n) => window.memoryHarness.seed('bench', n), SESSIONS);

    // A new service each run (another tab): its first search builds the index.
    const firsts: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const { ms } = await page.evaluate(
        (tab) => window.memoryHarness.timeSearches('bench', tab),
        `fresh-${run}`,
      );
      firsts.push(ms[0]!);
    }
    const perSearch = (ms: number[]) => ms.reduce((a, b) => a + b, 0) / ms.length;
    const warm = await page.evaluate(() => window.memoryHarness.timeSearches('bench'));
    expect(warm.found[0]).toBe(20);
    const held: number[] = [];
    for (let run = 0; run < RUNS; run++)
      held.push(
        perSearch((await page.evaluate(() => window.memoryHarness.timeSearches('bench'))).ms),
      );

    const browserName = `Chromium ${browser.context.browser()?.version() ?? ''}`.trim();
    const params = { sessions: SESSIONS, memories: SESSIONS * MEMORIES_PER_SESSION };
    const heldSummary = summarize(held);
    const results = [
      figure(
        GROUP,
        'Trellis IndexedDbMemoryService, index held',
        { ...params, measured: 'ms per search' },
        'ms',
        heldSummary,
        {
          target: { text: `≤ ${TARGET_MS} ms`, met: heldSummary.median <= TARGET_MS },
          note: `taken on ${browserName}; remembering the sessions took ${Math.round(seedMs)} ms`,
        },
      ),
      figure(
        GROUP,
        'Trellis IndexedDbMemoryService, first search',
        { ...params, measured: 'ms, index built from the stored records' },
        'ms',
        summarize(firsts),
      ),
    ];
    const existing = (await readResults()).groups.chromium;
    const about = existing
      ? { machine: existing.machine, date: existing.date, browser: existing.browser ?? browserName }
      : {
          machine: { ...nodeMachine(), runtime: browserName },
          date: new Date().toISOString(),
          browser: browserName,
        };
    await updateBenchmarksMd(await mergeResults('chromium', about, GROUP, results));
    console.log(`${browserName}\n${textTable(results)}`);
  } finally {
    await browser.close();
    await harness.close();
  }
});
