// Issue 13's streaming budget for Markdown messages, in headless Chromium against a production
// build: a 20,000-token answer (code, lists, tables; test/bench/chromium/markdown-answer.ts)
// streamed at 100 chunks a second through the chat's Markdown component, beside the baseline that
// re-parses the whole answer on every chunk, in the same run. Figures, never assertions: the main
// thread's long tasks (traced: the thread's own time apart from waiting for a CPU), the render cost
// per chunk over the first and the last 1,000 tokens (their ratio run by run), the stored message
// at the end; one more stream, traced. Writes the "Markdown streaming" group of
// test/bench/results.json's chromium part and the tables of BENCHMARKS.md.
//
// Alone: npx vitest run --project bench test/bench/chromium/markdown.bench.ts (about 5 minutes).

import { loadavg } from 'node:os';
import { it } from 'vitest';
import { launch } from '../../e2e/browser.ts';
import { nodeMachine } from '../machine.ts';
import { textTable, updateBenchmarksMd } from '../report.ts';
import { mergeResults, readResults } from '../results-file.ts';
import { traceLongTasks, type LongTaskTrace } from './long-task-trace.ts';
import type { StreamMode } from './page/markdown-bench.tsx';
import { GROUPS, markdownRows, type MarkdownRun } from './rows.ts';
import { buildAndServeBenchPage } from './servers.ts';

const TOKENS = 20_000;
const TOKENS_PER_CHUNK = 5;
const CHUNKS_PER_SECOND = 100;
const WINDOW_TOKENS = 1_000;
const RUNS = 3;

it(
  'Chromium: streaming a long Markdown answer through the chat’s component',
  { timeout: 600_000 },
  async () => {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
    const loadAverage = [loadavg()[0]!];
    const served = await buildAndServeBenchPage();
    const runs: MarkdownRun[] = [];
    let trace: LongTaskTrace | undefined;
    let characters = 0;
    let version = 'unknown';
    try {
      const browser = await launch();
      try {
        const { page } = browser;
        version = browser.context.browser()?.version() ?? version;
        const open = async () => {
          await page.goto(`${served.benchUrl}markdown.html`);
          await page.waitForFunction(() => 'markdownBench' in window);
        };
        await open();
        characters = (await page.evaluate((t) => window.markdownBench.answer(t), TOKENS))
          .characters;
        const chunks = await page.evaluate(([t, c]) => window.markdownBench.chunks(t, c), [
          TOKENS,
          TOKENS_PER_CHUNK,
        ] as const);
        const windowChunks = WINDOW_TOKENS / TOKENS_PER_CHUNK;
        const stream = (mode: StreamMode, from: number, to: number) =>
          page.evaluate(([m, t, c, f, e, i]) => window.markdownBench.stream(m, t, c, f, e, i), [
            mode,
            TOKENS,
            TOKENS_PER_CHUNK,
            from,
            to,
            1000 / CHUNKS_PER_SECOND,
          ] as const);
        for (let run = 0; run < RUNS; run++) {
          // A fresh page for each measurement (no heap carried over), in an order that turns.
          const measure = async <T>(what: () => Promise<T>) => {
            await open();
            return what();
          };
          const incremental = () =>
            measure(async () => ({
              incremental: await stream('incremental', 0, chunks),
              stored: await page.evaluate(() => window.markdownBench.stored()),
            }));
          const whole = async () => ({
            wholeFirst: await measure(() => stream('whole', 0, windowChunks)),
            wholeLast: await measure(() => stream('whole', chunks - windowChunks, chunks)),
          });
          runs.push(
            run % 2 === 0
              ? { ...(await incremental()), ...(await whole()) }
              : { ...(await whole()), ...(await incremental()) },
          );
          console.log(`run ${run + 1} of ${RUNS} (${elapsed()})`);
        }
        // Once more, traced (tracing costs a little on every task): what the long tasks were.
        await open();
        const stop = await traceLongTasks(page);
        await stream('incremental', 0, chunks);
        trace = await stop();
      } finally {
        await browser.close();
      }
    } finally {
      await served.close();
    }

    loadAverage.push(loadavg()[0]!);
    const date = new Date().toISOString();
    const browserName = `Chromium ${version}`;
    const results = markdownRows(runs, trace!, {
      tokens: TOKENS,
      characters,
      tokensPerChunk: TOKENS_PER_CHUNK,
      chunksPerSecond: CHUNKS_PER_SECOND,
      windowTokens: WINDOW_TOKENS,
      loadAverage,
    });
    results[0]!.note = `${results[0]!.note}; taken ${date} on ${browserName}`;
    // The chromium part's date and machine stay those of the run that wrote its other groups
    // (test/bench/chromium.bench.ts), if there was one; this group's date is in its first note.
    const existing = (await readResults()).groups.chromium;
    const about = existing
      ? { machine: existing.machine, date: existing.date, browser: existing.browser ?? browserName }
      : { machine: { ...nodeMachine(), runtime: browserName }, date, browser: browserName };
    const file = await mergeResults('chromium', about, GROUPS.markdown, results);
    await updateBenchmarksMd(file);
    console.log(`${browserName} (${elapsed()})\n${textTable(results)}`);
  },
);
