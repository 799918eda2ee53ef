// Issue 18, measured: a GGUF model in the browser through Trellis against wllama alone, in the
// same Chromium, on the same file. Round by round, in an order that reverses each round:
// wllama's own streamed chat completion in a page of its own, LocalGgufModel over a wllama of
// its own in that page (the model class alone), and the production app answering the same
// messages through its worker, agent, runner, events and chat. Figures, never assertions: time
// to the first token and tokens a second, medians with min and max, ratios taken round by
// round, the targets marked met or not. Writes the "local model (GGUF)" group of
// test/bench/results.json's chromium part and the tables of BENCHMARKS.md. How it is made fair:
// docs/local-models.md, "Measured".
//
// npx vitest run --project bench test/bench/local-model.bench.ts (about 5 minutes, more on a busy
// machine). TRELLIS_LOCAL_THREADS=2 serves both pages cross-origin isolated, so every side runs two
// threads.

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { launch } from '../e2e/browser.ts';
import { addLocalAgent, askApp, openApp, type AppSample } from './chromium/local/app-side.ts';
import { benchGguf, REPLY, type BenchModelSize } from './chromium/local/bench-model.ts';
import type { BaselineSample } from './chromium/local/page/baseline.ts';
import { LOCAL_GROUP, localRows, type LocalRound, type LocalSetup } from './chromium/local/rows.ts';
import { serveLocalBenchPages } from './chromium/local/serve.ts';
import { formatThreads, traceThreads } from './chromium/local/thread-profile.ts';
import { nodeMachine } from './machine.ts';
import { textTable, updateBenchmarksMd } from './report.ts';
import { mergeResults, readResults, type BenchResult } from './results-file.ts';

const THREADS = Number(process.env.TRELLIS_LOCAL_THREADS ?? 1);
const ROUNDS = Number(process.env.TRELLIS_LOCAL_ROUNDS ?? 7);
const WARMUPS = 2;
/**
 * Each side is asked on a quiet machine: this long after the last answer of any side (longer
 * than the app's tail after an answer: its last writes, and the spans written within a second),
 * and, in the app, after the new session is made and the message typed, as a user does.
 */
const SETTLE_MS = 1_500;
const settle = () => new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
/**
 * A diagnosis, not a figure of the app (its results are printed, not written): the app's chat
 * hidden while it streams, so the page's layout, paint and raster of the answer cost nothing.
 */
const HIDE_CHAT = process.env.TRELLIS_LOCAL_HIDE_CHAT === '1';
/**
 * A diagnosis too: after the rounds, one more answer of each side traced (every thread's busy
 * time and the functions V8's profiler caught running), printed, not written. A directory as
 * its value keeps the traces there too (<side>.json, for DevTools' Performance panel).
 */
const PROFILE = process.env.TRELLIS_LOCAL_PROFILE !== undefined;
interface BenchSize extends BenchModelSize {
  label: string;
}
/**
 * The model, in two sizes. "fast": a token in about 5 ms on one thread, ten times faster than any
 * real model runs in a browser, so whatever Trellis does per token or per second shows at its
 * largest. "real pace": a token in tens of ms, the pace of a 0.5–1.5B model quantised to 4 bits
 * on one thread in WebAssembly, which is what a user sees. TRELLIS_LOCAL_SIZE picks one.
 */
const ALL_SIZES: BenchSize[] = [
  { label: 'fast', embeddingLength: 256, blockCount: 8 },
  { label: 'real pace', embeddingLength: 768, blockCount: 12 },
];
const SIZES = ALL_SIZES.filter(
  ({ label }) => !process.env.TRELLIS_LOCAL_SIZE || label === process.env.TRELLIS_LOCAL_SIZE,
);
/** As workers/local-models/engine.ts loads the model, and LocalGgufModel asks it. */
const CONTEXT_TOKENS = 4096;
const MAX_TOKENS = 1024;
const TEMPERATURE = 0.2;
const AGENT = { name: 'bench', instruction: 'Answer in one line.' };
/** The system message LlmAgent writes for AGENT (src/agents/llm-call.ts). */
const SYSTEM = `You are an agent. Your internal name is "${AGENT.name}".\n\n${AGENT.instruction}`;

/** The message of round `n`: new text after the same start, as a new question in a new session. */
const message = (n: number) =>
  `Question ${n}: how do the rivers of the northern valleys change their course between the spring floods and the dry autumn?`;

it(
  'Chromium: a local GGUF model through Trellis against wllama alone',
  // Minutes on a loaded machine: per size, the app's build, the model loaded thrice, 3 × 9 answers.
  { timeout: 1_800_000 },
  async () => {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
    const results: BenchResult[] = [];
    let browserName = 'Chromium';
    for (const size of SIZES) {
      const measured = await measureSize(size, elapsed);
      browserName = `Chromium ${measured.version}`;
      const rows = localRows(measured.rounds, measured.setup);
      rows[0]!.note = `${rows[0]!.note}; taken ${new Date().toISOString()} on ${browserName}`;
      results.push(...rows);
    }
    // A diagnosis, or one size alone: printed, not written.
    if (HIDE_CHAT || PROFILE || SIZES.length < ALL_SIZES.length) {
      console.log(`A diagnosis, not written:\n${textTable(results)}`);
      return;
    }
    // As markdown.bench.ts: the chromium part's date and machine stay those of chromium.bench.ts.
    const date = new Date().toISOString();
    const existing = (await readResults()).groups.chromium;
    const about = existing
      ? { machine: existing.machine, date: existing.date, browser: existing.browser ?? browserName }
      : { machine: { ...nodeMachine(), runtime: browserName }, date, browser: browserName };
    const file = await mergeResults('chromium', about, LOCAL_GROUP, results);
    await updateBenchmarksMd(file);
    console.log(`${browserName} (${elapsed()})\n${textTable(results)}`);
  },
);

/** One model size, round by round: the rounds, and what the rows say of the setup. */
async function measureSize(
  size: BenchSize,
  elapsed: () => string,
): Promise<{ rounds: LocalRound[]; setup: LocalSetup; version: string }> {
  const loadAverage = [loadavg()[0]!];
  const directory = mkdtempSync(join(tmpdir(), 'trellis-local-bench-model-'));
  const modelPath = join(directory, 'bench.gguf');
  const bytes = benchGguf(size);
  writeFileSync(modelPath, bytes);
  const model = `llama f32, ${size.blockCount} blocks × ${size.embeddingLength}, ${(bytes.length / 2 ** 20).toFixed(1)} MiB`;
  const served = await serveLocalBenchPages(THREADS > 1);
  const rounds: LocalRound[] = [];
  let version = 'unknown';
  let appThreads = '';
  try {
    const browser = await launch();
    try {
      version = browser.context.browser()?.version() ?? version;
      // Both sides in a tab opened alike (not the context's first, initial tab for one of them).
      const app = await browser.context.newPage();
      const baseline = await browser.context.newPage();
      await baseline.goto(served.baselineUrl);
      await baseline.waitForFunction(() => 'localBaseline' in window);
      await baseline.setInputFiles('#model', modelPath);
      const loaded = await baseline.evaluate(
        ([threads, context]) => window.localBaseline.load(threads, context),
        [THREADS, CONTEXT_TOKENS] as const,
      );
      if (loaded.threads !== THREADS)
        throw new Error(`Bench setup: the baseline runs ${loaded.threads} threads, not ${THREADS}`);

      await openApp(app, served.appUrl);
      const added = await addLocalAgent(app, modelPath, AGENT);
      appThreads = added.threads;
      const wanted = THREADS > 1 ? `(${THREADS} threads)` : 'single-threaded';
      if (!appThreads.includes(wanted))
        throw new Error(`Bench setup: the app says “${appThreads}”, not ${wanted}`);

      const askBaseline = async (n: number): Promise<BaselineSample> => {
        await baseline.bringToFront();
        await settle();
        return baseline.evaluate(
          ([messages, max, temperature]) =>
            window.localBaseline.chat([...messages], max, temperature),
          [
            [
              { role: 'system' as const, content: SYSTEM },
              { role: 'user' as const, content: message(n) },
            ],
            MAX_TOKENS,
            TEMPERATURE,
          ] as const,
        );
      };
      const askModel = async (n: number): Promise<BaselineSample> => {
        await baseline.bringToFront();
        await settle();
        return baseline.evaluate(([system, user]) => window.localBaseline.model(system, user), [
          SYSTEM,
          message(n),
        ] as const);
      };
      const askTrellis = async (n: number): Promise<AppSample> => {
        await app.bringToFront();
        return askApp(app, added.agentId, message(n), REPLY.length, {
          hideChat: HIDE_CHAT,
          settle,
        });
      };
      // The first calls load the model in the app and warm both up (compiled code, caches);
      // each side then has the same messages in its KV cache before each round.
      for (let n = 1; n <= WARMUPS; n++) {
        check(await askBaseline(-n), await askTrellis(-n), await askModel(-n));
        console.log(`${size.label}: warm-up ${n} (${elapsed()})`);
      }
      for (let n = 1; n <= ROUNDS; n++) {
        // In turns: the order reverses each round, so load from elsewhere falls on all three.
        const round =
          n % 2 === 1
            ? {
                baseline: await askBaseline(n),
                model: await askModel(n),
                app: await askTrellis(n),
              }
            : {
                app: await askTrellis(n),
                model: await askModel(n),
                baseline: await askBaseline(n),
              };
        check(round.baseline, round.app, round.model);
        rounds.push(round);
        console.log(
          `${size.label}: round ${n} of ${ROUNDS}: wllama ${round.baseline.chunkMs[0]!.toFixed(0)} ms to the first token, ` +
            `LocalGgufModel ${round.model.chunkMs[0]!.toFixed(0)} ms, Trellis ${round.app.shownMs[0]!.toFixed(0)} ms (${elapsed()})`,
        );
      }
      if (PROFILE) {
        for (const [side, page, ask] of [
          ['wllama', baseline, askBaseline],
          ['trellis', app, askTrellis],
          ['local-gguf-model', baseline, askModel],
        ] as const) {
          const directory = process.env.TRELLIS_LOCAL_PROFILE;
          const file =
            directory && directory !== '1'
              ? join(directory, `${size.label.replace(/\W+/g, '-')}-${side}.json`)
              : undefined;
          const stop = await traceThreads(page, file);
          await ask(100);
          console.log(`${size.label}, ${side}, traced:\n${formatThreads(await stop())}`);
        }
      }
      await baseline.close();
      if (browser.errors.length) console.warn(`browser errors: ${browser.errors.join('\n')}`);
    } finally {
      await browser.close();
    }
  } finally {
    await served.close();
    rmSync(directory, { recursive: true, force: true });
  }
  loadAverage.push(loadavg()[0]!);
  const first = rounds[0]!;
  const setup: LocalSetup = {
    size: size.label,
    threads: THREADS,
    appThreads,
    model,
    promptTokens: first.app.promptTokens ?? 0,
    replyTokens: first.app.replyTokens ?? 0,
    loadAverage,
  };
  return { rounds, setup, version };
}

/**
 * Both sides answered the same prompt with the same reply, or the comparison is not fair: the
 * same prompt tokens (the app's usage counts those llama.cpp computed and those from its cache),
 * the whole reply, and nothing else.
 */
function check(baseline: BaselineSample, app: AppSample, model: BaselineSample): void {
  const basePrompt = (baseline.timings?.prompt_n ?? 0) + (baseline.timings?.cache_n ?? 0);
  if (baseline.text !== REPLY || app.text !== REPLY || model.text !== REPLY)
    throw new Error(
      `Bench setup: replies differ from the model's chain: ${baseline.text} / ${app.text}`,
    );
  if (app.promptTokens !== basePrompt)
    throw new Error(
      `Bench setup: the app's prompt has ${app.promptTokens} tokens, wllama's ${basePrompt}`,
    );
}
