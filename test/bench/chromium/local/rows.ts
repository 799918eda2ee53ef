// The local model bench's figures as rows of test/bench/results.json: wllama alone and Trellis on
// the same GGUF, round by round, ratios taken round by round, issue 18's targets marked met or not.

import { pairedRatio, summarize } from '../../measure.ts';
import { figure, type BenchResult } from '../../results-file.ts';
import type { AppSample } from './app-side.ts';
import type { BaselineSample } from './page/baseline.ts';

export const LOCAL_GROUP = 'local model (GGUF)';

export interface LocalRound {
  baseline: BaselineSample;
  /** LocalGgufModel over a wllama of its own in the baseline's page. */
  model: BaselineSample;
  app: AppSample;
}

export interface LocalSetup {
  /** Which of the bench's model sizes. */
  size: string;
  threads: number;
  /** What Settings → Providers said of threads in the app. */
  appThreads: string;
  model: string;
  promptTokens: number;
  replyTokens: number;
  loadAverage: number[];
}

/** Tokens a second from the first token shown to the last: the pace of the stream itself. */
export function tokensPerSecond(times: number[], chars: number[]): number {
  return ((chars.at(-1)! - chars[0]!) / (times.at(-1)! - times[0]!)) * 1000;
}

export function localRows(rounds: LocalRound[], setup: LocalSetup): BenchResult[] {
  const params = {
    model: setup.size,
    threads: setup.threads,
    'prompt tokens': setup.promptTokens,
    'reply tokens': setup.replyTokens,
  };
  const row = (
    name: string,
    unit: string,
    samples: number[],
    extra: Parameters<typeof figure>[5] = {},
  ) => figure(LOCAL_GROUP, name, params, unit, summarize(samples), extra);
  const baseFirst = rounds.map((r) => r.baseline.chunkMs[0]!);
  const appFirst = rounds.map((r) => r.app.shownMs[0]!);
  const promptMs = rounds.map((r) => r.baseline.timings?.prompt_ms ?? Number.NaN);
  const baseRate = rounds.map((r) => tokensPerSecond(r.baseline.chunkMs, r.baseline.chars));
  const appRate = rounds.map((r) => tokensPerSecond(r.app.shownMs, r.app.chars));
  const modelFirst = rounds.map((r) => r.model.chunkMs[0]!);
  const modelRate = rounds.map((r) => tokensPerSecond(r.model.chunkMs, r.model.chars));
  const workerFirst = rounds.map((r) => r.app.workerFirstTokenMs ?? Number.NaN);
  // From the first token to the whole answer, in the worker: the same stream before the page.
  const workerRate = rounds.map(
    (r) =>
      ((r.app.chars.at(-1)! - 1) / ((r.app.workerTotalMs ?? 0) - (r.app.workerFirstTokenMs ?? 0))) *
      1000,
  );
  const llamaRate = rounds.map(
    (r) =>
      ((r.baseline.timings?.predicted_n ?? 0) / (r.baseline.timings?.predicted_ms ?? 0)) * 1000,
  );
  // The target, round by round: how far under (negative) or over its limit the app was.
  const overFirst = rounds.map((_, i) => appFirst[i]! - (1.1 * baseFirst[i]! + 20));
  const overPrompt = rounds.map((_, i) => appFirst[i]! - (1.1 * promptMs[i]! + 20));
  const firstRatio = pairedRatio(appFirst, baseFirst);
  const rateRatio = pairedRatio(appRate, baseRate);
  const ms = (samples: number[]) => samples.map((v) => v.toFixed(0)).join(', ');
  return [
    row('wllama alone: call → first token', 'ms', baseFirst, {
      note:
        `createChatCompletion streamed to onData, in a page of its own (test/bench/chromium/local/page); ` +
        `${setup.model}; load average ${setup.loadAverage.map((l) => l.toFixed(1)).join(' → ')}`,
    }),
    row('wllama alone: llama.cpp’s prompt processing (its timings)', 'ms', promptMs, {
      note: 'prompt_ms of the same calls: the prompt’s tokens not already in the KV cache',
    }),
    row('LocalGgufModel in the same page: call → first token', 'ms', modelFirst, {
      ratio: { vs: 'wllama alone', ...pairedRatio(modelFirst, baseFirst) },
      note: 'generateContentAsync streamed, over a wllama of its own: no worker, runner or chat',
    }),
    row('Trellis (app): Send → first token on screen', 'ms', appFirst, {
      ratio: { vs: 'wllama alone', ...firstRatio },
      target: {
        text: '≤ 1.1× wllama’s call → first token + 20 ms',
        met: summarize(overFirst).median <= 0,
      },
      note:
        `over (+) or under (−) the limit by round: ${ms(overFirst)} ms; against llama.cpp’s ` +
        `prompt_ms alone (1.1× + 20 ms): ${ms(overPrompt)} ms. ${setup.appThreads}`,
    }),
    row('Trellis (app): the worker’s request → first token', 'ms', workerFirst, {
      note: 'customMetadata.trellis.timing.firstTokenMs of the stored answer: the model call inside the worker',
    }),
    row('wllama alone: tokens/s', 'tokens/s', baseRate, {
      note: 'first token to last, as onData got them',
    }),
    row('wllama alone: llama.cpp’s own tokens/s (its timings)', 'tokens/s', llamaRate, {
      note: 'predicted_n / predicted_ms of the same calls',
    }),
    row('LocalGgufModel in the same page: tokens/s', 'tokens/s', modelRate, {
      ratio: { vs: 'wllama alone', ...pairedRatio(modelRate, baseRate) },
    }),
    row('Trellis (app): tokens/s in the worker', 'tokens/s', workerRate, {
      ratio: { vs: 'wllama alone', ...pairedRatio(workerRate, baseRate) },
      note: 'first token to the whole answer in the runtime worker (its model timing), before the page',
    }),
    row('Trellis (app): tokens/s on screen', 'tokens/s', appRate, {
      ratio: { vs: 'wllama alone', ...rateRatio },
      target: { text: '≥ 0.95× wllama alone', met: rateRatio.median >= 0.95 },
      note: 'first token shown to the whole answer shown (the worker sends streamed text at most every 100 ms)',
    }),
  ];
}
