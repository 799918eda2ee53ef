// Knowledge bases (issue 34) in headless Chromium, on the browser's IndexedDB (the page of
// test/bench/knowledge-harness/): 200 pages of text added as a PDF (pdf.js reads it) and as
// Markdown, in MB of text a second (target ≥ 1 MB/s full-text), each against a plain put of the
// same text in the same run, after one add of each not counted (pdf.js loading and compiling;
// its rate is in the note); and searches over a base of 10,000 chunks, full-text and hybrid
// (target ≤ 30 ms each), with the first search of a base just opened (its index built from
// storage), and of one opened and prepared a model's turn before (the worker-start case).
// Figures, never assertions (but that the searches find something). Writes the "knowledge"
// group of results.json's chromium part.
//
// Alone: npx vitest run --project bench test/bench/knowledge.bench.ts (a couple of minutes).

import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { launch } from '../e2e/browser.ts';
import { serveHarness } from '../e2e/markdown-harness/serve.ts';
import { makePdf } from '../support/make-pdf.ts';
import { nodeMachine } from './machine.ts';
import { summarize } from './measure.ts';
import { textTable, updateBenchmarksMd } from './report.ts';
import { figure, mergeChromiumGroup } from './results-file.ts';

const GROUP = 'knowledge';
const PAGES = 200;
const LINES_PER_PAGE = 36;
const RUNS = 3;
const SEED_DOCUMENTS = 10;
const QUERIES = 40;
/** When the first search comes after a base is opened and prepared: a model's first turn. */
const PREPARED_AFTER_MS = 3000;

/** Words that read like a language: the same seed, the same words. */
function words(seed: number) {
  let state = seed;
  const next = () => ((state = (state * 1103515245 + 12345) >>> 0) >>> 8) / 0x1000000;
  const syllables = ['ka', 'lo', 'mi', 'ne', 'sa', 'to', 'ru', 've', 'qui', 'zor', 'bel', 'dan'];
  const vocabulary = Array.from({ length: 3000 }, () =>
    Array.from(
      { length: 2 + Math.floor(next() * 3) },
      () => syllables[Math.floor(next() * 12)],
    ).join(''),
  );
  // Zipf-like: early words are common, late ones rare.
  const word = () => vocabulary[Math.floor(vocabulary.length * next() ** 3)]!;
  const line = () => {
    const out: string[] = [];
    while (out.join(' ').length < 70) out.push(word());
    return `${out.join(' ')}.`;
  };
  return { word, line, vocabulary };
}

it('Chromium: knowledge bases, indexing and search', { timeout: 900_000 }, async () => {
  const lang = words(34);
  const pages = Array.from({ length: PAGES }, () =>
    Array.from({ length: LINES_PER_PAGE }, () => lang.line()),
  );
  const pdf = Buffer.from(await makePdf(pages)).toString('base64');
  const markdown = Buffer.from(
    pages.map((lines, i) => `## Page ${i + 1}\n\n${lines.join('\n')}`).join('\n\n'),
  ).toString('base64');
  // A document of ~1,000 chunks of ~1,000 characters.
  const big = Array.from(
    { length: 1000 },
    (_, i) => `## Part ${i} DOC\n\n${Array.from({ length: 12 }, () => lang.line()).join(' ')}`,
  ).join('\n\n');
  const queries = Array.from({ length: QUERIES }, (_, i) =>
    Array.from({ length: 1 + (i % 3) }, () => lang.vocabulary[Math.floor((i * 37) % 600)]!).join(
      ' ',
    ),
  );

  const harness = await serveHarness(
    fileURLToPath(new URL('./knowledge-harness/', import.meta.url)),
  );
  const browser = await launch();
  try {
    const { page } = browser;
    await page.goto(harness.url);
    await page.waitForFunction(() => 'knowledgeHarness' in window);

    const rates = { pdf: [] as number[], markdown: [] as number[], vectors: [] as number[] };
    const ratios = { pdf: [] as number[], markdown: [] as number[] };
    let chars = 0;
    const cold = { pdf: 0, markdown: 0 };
    const pdfReads: number[] = [];
    // Run -1 warms up (pdf.js loaded and compiled): its rates are the first add of a worker.
    for (let run = -1; run < RUNS; run++) {
      for (const kind of ['pdf', 'markdown'] as const) {
        const added = await page.evaluate(
          ([name, type, data]) => window.knowledgeHarness.add(name, type, data, false),
          kind === 'pdf'
            ? (['atlas.pdf', 'application/pdf', pdf] as const)
            : (['atlas.md', 'text/markdown', markdown] as const),
        );
        chars = added.chars;
        const rate = added.chars / 1e6 / (added.ms / 1000);
        if (run < 0) {
          cold[kind] = rate;
          continue;
        }
        rates[kind].push(rate);
        ratios[kind].push(added.ms / added.plainMs);
        if (kind === 'pdf') {
          const ms = await page.evaluate(
            (data) => window.knowledgeHarness.read('atlas.pdf', 'application/pdf', data),
            pdf,
          );
          pdfReads.push(added.chars / 1e6 / (ms / 1000));
        }
      }
      if (run < 0) continue;
      const withVectors = await page.evaluate(
        (data) => window.knowledgeHarness.add('atlas.md', 'text/markdown', data, true),
        markdown,
      );
      rates.vectors.push(withVectors.chars / 1e6 / (withVectors.ms / 1000));
    }

    const seeded = await page.evaluate(([n, text]) => window.knowledgeHarness.seed(n, text), [
      SEED_DOCUMENTS,
      big,
    ] as const);
    console.log(`seeded ${seeded.chunks} chunks`);
    // Each a base opened anew (a build of its own), a few times: one build is seconds, and noisy.
    const firsts: Awaited<ReturnType<typeof window.knowledgeHarness.firstSearch>>[] = [];
    const prepared: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      firsts.push(
        await page.evaluate(([id, query]) => window.knowledgeHarness.firstSearch(id, query), [
          seeded.id,
          queries[run]!,
        ] as const),
      );
      const { ms } = await page.evaluate(
        ([id, query, after]) => window.knowledgeHarness.preparedSearch(id, query, after),
        [seeded.id, queries[RUNS + run]!, PREPARED_AFTER_MS] as const,
      );
      prepared.push(ms);
    }
    const median = (of: (run: (typeof firsts)[number]) => number) =>
      summarize(firsts.map(of)).median.toFixed(0);
    const fulltext: number[] = [];
    const hybrid: number[] = [];
    for (let run = 0; run < RUNS; run++) {
      const f = await page.evaluate(
        (q) => window.knowledgeHarness.searches(q, 'fulltext'),
        queries,
      );
      const h = await page.evaluate((q) => window.knowledgeHarness.searches(q, 'hybrid'), queries);
      expect(f.found).toBeGreaterThan(QUERIES / 2);
      expect(h.found).toBeGreaterThan(QUERIES / 2);
      fulltext.push(...f.ms);
      hybrid.push(...h.ms);
    }

    const browserName = `Chromium ${browser.context.browser()?.version() ?? ''}`.trim();
    const pdfRate = summarize(rates.pdf);
    const mdRate = summarize(rates.markdown);
    const ft = summarize(fulltext);
    const hy = summarize(hybrid);
    const addParams = { pages: PAGES, characters: chars };
    const searchParams = { chunks: seeded.chunks };
    const results = [
      figure(
        GROUP,
        'Adding a 200-page PDF, full-text',
        { ...addParams, measured: 'MB of text/s' },
        'MB/s',
        pdfRate,
        {
          target: { text: '≥ 1 MB/s', met: pdfRate.median >= 1 },
          note: `read by pdf.js, chunked, stored and indexed; ${summarize(ratios.pdf).median.toFixed(1)}× a plain put of its text in the same run; pdf.js reading alone ${summarize(pdfReads).median.toFixed(2)} MB/s; the first PDF a page adds (pdf.js loaded and compiled) ${cold.pdf.toFixed(2)} MB/s; ${RUNS} runs after that one; taken on ${browserName}`,
        },
      ),
      figure(
        GROUP,
        'Adding 200 pages of Markdown, full-text',
        { ...addParams, measured: 'MB of text/s' },
        'MB/s',
        mdRate,
        {
          target: { text: '≥ 1 MB/s', met: mdRate.median >= 1 },
          note: `${summarize(ratios.markdown).median.toFixed(1)}× a plain put of its text in the same run; the first ${cold.markdown.toFixed(2)} MB/s`,
        },
      ),
      figure(
        GROUP,
        'Adding 200 pages of Markdown with vectors',
        { ...addParams, measured: 'MB of text/s' },
        'MB/s',
        summarize(rates.vectors),
        {
          note: 'vectors made in the page (hashed words, 64 dimensions): the cost of storing and indexing them, not of a provider',
        },
      ),
      figure(
        GROUP,
        'First search of a base just opened (index built from storage)',
        { ...searchParams, measured: 'ms' },
        'ms',
        summarize(firsts.map((run) => run.ms)),
        {
          note: `medians: its chunks' bulk read alone takes ${median((run) => run.chunksMs)} ms, its vectors' ${median((run) => run.vectorsMs)} ms; the index is built in slices, the thread held ${median((run) => run.longestMs)} ms at most meanwhile`,
        },
      ),
      figure(
        GROUP,
        'First search of a base prepared when opened',
        { ...searchParams, measured: 'ms' },
        'ms',
        summarize(prepared),
        {
          note: `the worker-start case: the base opened and \`prepare\`d (its index built in the background), its first search ${PREPARED_AFTER_MS / 1000} s later (an agent's first model turn)`,
        },
      ),
      figure(GROUP, 'Full-text search', { ...searchParams, measured: 'ms per search' }, 'ms', ft, {
        target: { text: '≤ 30 ms', met: ft.median <= 30 },
        note: `${QUERIES} queries of 1–3 words, ${RUNS} times`,
      }),
      figure(GROUP, 'Hybrid search', { ...searchParams, measured: 'ms per search' }, 'ms', hy, {
        target: { text: '≤ 30 ms', met: hy.median <= 30 },
        note: `the same queries, words and 64-dimension vectors together`,
      }),
    ];
    const machine = { ...nodeMachine(), runtime: browserName };
    await updateBenchmarksMd(await mergeChromiumGroup(browserName, machine, GROUP, results));
    console.log(`${browserName}\n${textTable(results)}`);
  } finally {
    await browser.close();
    await harness.close();
  }
});
