// test/bench/results.json: the latest figures of every benchmark, per environment.
//
// {
//   "groups": {
//     "node":     { machine, date, node: "v20.20.2", results: [...] },   // npm run bench
//     "chromium": { machine, date, browser: "...", results: [...] }     // the browser's script
//   }
// }
//
// Each environment's part is written by its own script, and each benchmark file replaces only
// its own results (by `group`), so figures from other files and environments stay as they were.

import { mkdir, readFile, writeFile } from 'node:fs/promises';
import type { Machine } from './machine.ts';
import type { Summary } from './measure.ts';

export const RESULTS_URL = new URL('./results.json', import.meta.url);

export type Environment = 'node' | 'chromium';

export interface BenchResult {
  /** The benchmark: `turn overhead`, `rewind`, … */
  group: string;
  /** What ran: a framework and its set-up. */
  name: string;
  /** The size of the run (`turns`, `events`) and what was measured; numbers read as "1,000 turns". */
  params: Record<string, string | number>;
  unit: string;
  /** `null` when skipped (`note` says why). */
  median: number | null;
  min: number | null;
  max: number | null;
  runs: number;
  /** This figure divided by `vs`'s, run by run (above 1: `vs` is cheaper). */
  ratio?: { vs: string } & Summary;
  target?: { text: string; met: boolean };
  /** Fewer runs, a skip, or anything else a reader must know to read the figure. */
  note?: string;
}

export interface EnvironmentResults {
  machine: Machine;
  /** ISO 8601, when the figures were taken. */
  date: string;
  /** Node's version (the `node` environment). */
  node?: string;
  /** The browser's name and version (the `chromium` environment). */
  browser?: string;
  results: BenchResult[];
}

export interface ResultsFile {
  groups: Partial<Record<Environment, EnvironmentResults>>;
}

export async function readResults(): Promise<ResultsFile> {
  try {
    return JSON.parse(await readFile(RESULTS_URL, 'utf8')) as ResultsFile;
  } catch (error) {
    // No file yet (a fresh clone): start one.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { groups: {} };
    throw error;
  }
}

/** Replaces the results of benchmark `group` in `environment`, keeping everything else. */
export async function mergeResults(
  environment: Environment,
  about: Omit<EnvironmentResults, 'results'>,
  group: string,
  results: readonly BenchResult[],
): Promise<ResultsFile> {
  const file = await readResults();
  const old = file.groups[environment]?.results ?? [];
  // In the place of the group's old results, so the tables keep their order from run to run.
  const at = old.findIndex((r) => r.group === group);
  const before = at < 0 ? old : old.slice(0, at).filter((r) => r.group !== group);
  const after = at < 0 ? [] : old.slice(at).filter((r) => r.group !== group);
  file.groups[environment] = { ...about, results: [...before, ...results, ...after] };
  await mkdir(new URL('.', RESULTS_URL), { recursive: true });
  await writeFile(RESULTS_URL, `${JSON.stringify(file, null, 2)}\n`);
  return file;
}

/** A measured figure as a result row. */
export function figure(
  group: string,
  name: string,
  params: BenchResult['params'],
  unit: string,
  summary: Summary,
  extra: Pick<BenchResult, 'ratio' | 'target' | 'note'> = {},
): BenchResult {
  return { group, name, params, unit, ...summary, ...extra };
}

/** A row for something not measured, and why. */
export function skipped(
  group: string,
  name: string,
  params: BenchResult['params'],
  unit: string,
  why: string,
): BenchResult {
  return { group, name, params, unit, median: null, min: null, max: null, runs: 0, note: why };
}

/**
 * Replaces a group's results in the `chromium` part, keeping the machine and date of the part's
 * figures if it has some (a bench of one group taken later adds to them), else these.
 */
export async function mergeChromiumGroup(
  browserName: string,
  machine: Machine,
  group: string,
  results: readonly BenchResult[],
): Promise<ResultsFile> {
  const existing = (await readResults()).groups.chromium;
  const about = existing
    ? { machine: existing.machine, date: existing.date, browser: existing.browser ?? browserName }
    : { machine, date: new Date().toISOString(), browser: browserName };
  return mergeResults('chromium', about, group, results);
}
