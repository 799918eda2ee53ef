// Issue 8, the Chromium half: the app's costs in real headless Chromium against its production
// build — appends, opening and rewinding long sessions, load, resume after a reload, long tasks,
// bundle sizes. Medians of runs with min and max, ratios taken run by run, issue 8's targets
// reported as met or not: figures, never assertions. Writes the "chromium" part of
// test/bench/results.json and prints the table. How each figure is taken: test/bench/chromium/.

import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { launch } from '../e2e/browser.ts';
import { measureLoad, measureLongTasks, measureResume } from './chromium/app-figures.ts';
import { bundleSizes } from './chromium/bundle-sizes.ts';
import {
  GROUPS,
  appendRows,
  loadRows,
  longTaskRows,
  openRows,
  resumeRows,
  rewindRows,
  sizeRows,
} from './chromium/rows.ts';
import { buildAndServe } from './chromium/servers.ts';
import { nodeMachine } from './machine.ts';
import { textTable, updateBenchmarksMd } from './report.ts';
import { mergeResults, type BenchResult, type ResultsFile } from './results-file.ts';

const APPEND_EVENTS = 400;
const OPEN_LENGTHS = [1_000, 10_000, 100_000];
const REWIND_LENGTHS = [100, 10_000, 100_000];
const TURNS = 200;
const RUNS = 7;
/** Opening 100,000 events takes seconds a time: five runs (the least issue 8 allows). */
const OPEN_RUNS = 5;
const RESUME_RUNS = 5;

it('Chromium: the app’s costs against its production build', { timeout: 600_000 }, async () => {
  const started = performance.now();
  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  const progress = (what: string) => console.log(`${what} (${elapsed()})`);
  const loadAverage = [loadavg()[0]!];
  const served = await buildAndServe();
  const results: BenchResult[] = [];
  let version = 'unknown';
  try {
    // 1–3: the runtime's code in a worker of the bench page, beside raw IndexedDB.
    const browser = await launch();
    try {
      const { page } = browser;
      version = browser.context.browser()?.version() ?? (await browserVersion(page));
      await page.goto(served.benchUrl);
      await page.waitForFunction(() => 'trellisBench' in window);
      const lengths = [...new Set([...OPEN_LENGTHS, ...REWIND_LENGTHS])].sort((a, b) => a - b);
      const { check, seeded } = await page.evaluate((l) => window.trellisBench.seed(l), lengths);
      const sizes = seeded.map((s) => `${s.length}: ${Math.round(s.generateMs + s.writeMs)} ms`);
      progress(
        `seeded (events: ms) ${sizes.join(', ')}; checked on ${check.events} events: bulk ` +
          `${Math.round(check.bulkMs)} ms, importSession ${Math.round(check.importMs)} ms`,
      );
      const sessions = (wanted: number[]) => wanted.map((l) => seeded.find((s) => s.length === l)!);

      const append = await page.evaluate(
        ([count, runs]) => window.trellisBench.append(count, runs, 1),
        [APPEND_EVENTS, RUNS] as const,
      );
      results.push(...appendRows(append, APPEND_EVENTS));
      progress('appends');

      const open = await page.evaluate(([s, runs]) => window.trellisBench.open(s, runs, 1), [
        sessions(OPEN_LENGTHS),
        OPEN_RUNS,
      ] as const);
      results.push(...openRows(open, OPEN_LENGTHS));
      progress(
        `opens (history rows: ${open[0]!.map((s) => `${s.length} events ${s.rows}`).join(', ')})`,
      );

      const rewind = await page.evaluate(([s, runs]) => window.trellisBench.rewind(s, runs, 1), [
        sessions(REWIND_LENGTHS),
        RUNS,
      ] as const);
      results.push(...rewindRows(rewind, REWIND_LENGTHS));
      progress('rewinds');
    } finally {
      await browser.close();
    }

    // 4–6: the production app itself.
    results.push(...loadRows(await measureLoad(served.appUrl, RUNS)));
    progress('loads');
    for (const pace of ['visible', 'instant'] as const)
      results.push(...resumeRows(await measureResume(served.appUrl, RESUME_RUNS, pace), pace));
    progress('resumes');
    const tasks = await measureLongTasks(served.appUrl, TURNS);
    loadAverage.push(loadavg()[0]!);
    results.push(...longTaskRows(tasks, loadAverage));
    progress(`long tasks: ${JSON.stringify(tasks.trace)}`);

    // 7: what the production build weighs.
    results.push(...sizeRows(bundleSizes(served.appDir)));
  } finally {
    await served.close();
  }

  const browserName = `Chromium ${version}`;
  const about = {
    machine: { ...nodeMachine(), runtime: browserName },
    date: new Date().toISOString(),
    browser: browserName,
  };
  let file: ResultsFile | undefined;
  // The Markdown streaming and big state rows are markdown.bench.ts's and big-state.bench.ts's
  // own: an empty group here would wipe them.
  const own = [GROUPS.markdown, GROUPS.bigState] as string[];
  for (const group of Object.values(GROUPS).filter((group) => !own.includes(group))) {
    const rows = results.filter((result) => result.group === group);
    file = await mergeResults('chromium', about, group, rows);
  }
  await updateBenchmarksMd(file!);
  console.log(`${browserName} (${elapsed()})\n${textTable(results)}`);
});

/** The version the user agent shows (its minor numbers are zeroed: a fallback only). */
async function browserVersion(page: Page): Promise<string> {
  const agent = await page.evaluate(() => navigator.userAgent);
  return /Chrome\/([\d.]+)/.exec(agent)?.[1] ?? 'unknown';
}
