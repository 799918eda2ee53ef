// The tables of test/bench/results.json: printed by each benchmark, and kept in BENCHMARKS.md
// between its two markers (the rest of that file is written by hand).

import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { nodeMachine } from './machine.ts';
import { formatNumber, formatTable } from './measure.ts';
import {
  mergeResults,
  type BenchResult,
  type Environment,
  type EnvironmentResults,
  type ResultsFile,
} from './results-file.ts';

const BENCHMARKS_URL = new URL('../../BENCHMARKS.md', import.meta.url);
const START = '<!-- bench:results:start (written by npm run bench; edit around, not inside) -->';
const END = '<!-- bench:results:end -->';

const HEADER = [
  'benchmark',
  'run',
  'median',
  'min',
  'max',
  'runs',
  'ratio (median, min–max)',
  'target',
  'note',
];

function row(result: BenchResult): string[] {
  const value = (n: number | null) => (n === null ? '—' : `${formatNumber(n)} ${result.unit}`);
  const ratio = result.ratio
    ? `${formatNumber(result.ratio.median)}× ${result.ratio.vs} (${formatNumber(result.ratio.min)}–${formatNumber(result.ratio.max)})`
    : '';
  const target = result.target
    ? `${result.target.met ? 'met' : 'NOT met'}: ${result.target.text}`
    : '';
  return [
    result.name,
    paramsLabel(result.params),
    value(result.median),
    value(result.min),
    value(result.max),
    String(result.runs),
    ratio,
    target,
    result.note ?? '',
  ];
}

export function paramsLabel(params: BenchResult['params']): string {
  return Object.entries(params)
    .map(([key, value]) =>
      typeof value === 'number' ? `${value.toLocaleString('en-US')} ${key}` : value,
    )
    .join(', ');
}

/** A plain-text table of `results`, for the console. */
export function textTable(results: readonly BenchResult[]): string {
  return formatTable([HEADER, ...results.map(row)]);
}

function markdownTable(results: readonly BenchResult[]): string {
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [
    `| ${HEADER.join(' | ')} |`,
    `|${HEADER.map(() => '---').join('|')}|`,
    ...results.map((result) => `| ${row(result).map(escape).join(' | ')} |`),
  ].join('\n');
}

function environmentSection(name: string, env: EnvironmentResults): string {
  const { machine } = env;
  const groups = [...new Set(env.results.map((r) => r.group))];
  return [
    `### ${name}`,
    '',
    `Taken ${env.date} on ${machine.cpu}, ${machine.cores} cores, ${machine.ramGiB} GiB RAM, ` +
      `${machine.os}, ${machine.runtime}.`,
    ...groups.flatMap((group) => [
      '',
      `#### ${group}`,
      '',
      markdownTable(env.results.filter((r) => r.group === group)),
    ]),
  ].join('\n');
}

/** Environments in a fixed order (Node, then the browser), whichever script wrote last. */
const ENVIRONMENTS: readonly Environment[] = ['node', 'chromium'];
const TITLES: Record<Environment, string> = { node: 'Node', chromium: 'Chromium' };

export function markdownResults(file: ResultsFile): string {
  return ENVIRONMENTS.flatMap((name) => {
    const env = file.groups[name];
    return env ? [environmentSection(TITLES[name], env)] : [];
  }).join('\n\n');
}

/**
 * What a Node benchmark ends with: its table printed, its results kept in results.json in place
 * of its group's old ones, and BENCHMARKS.md's tables written again.
 */
export async function publishNodeResults(
  group: string,
  results: readonly BenchResult[],
): Promise<void> {
  console.log(textTable(results));
  const file = await mergeResults(
    'node',
    { machine: nodeMachine(), date: new Date().toISOString(), node: process.version },
    group,
    results,
  );
  await updateBenchmarksMd(file);
}

/** Rewrites the generated part of BENCHMARKS.md; says so and leaves the file if it has no markers. */
export async function updateBenchmarksMd(file: ResultsFile): Promise<void> {
  let text: string;
  try {
    text = await readFile(BENCHMARKS_URL, 'utf8');
  } catch {
    console.warn('BENCHMARKS.md not found: the tables are only in test/bench/results.json');
    return;
  }
  const start = text.indexOf(START);
  const end = text.indexOf(END);
  if (start < 0 || end < start) {
    console.warn('BENCHMARKS.md has no results markers: left as it is');
    return;
  }
  const generated = `${START}\n\n${markdownResults(file)}\n\n${END}`;
  const path = fileURLToPath(BENCHMARKS_URL);
  // Formatted as `npx prettier --write` would, so the file stays as the repository keeps it.
  const options = { ...(await prettier.resolveConfig(path)), filepath: path };
  const updated = text.slice(0, start) + generated + text.slice(end + END.length);
  await writeFile(BENCHMARKS_URL, await prettier.format(updated, options));
}
