// Timing helpers for the benchmarks: medians of repeated runs, and ratios taken run by run.
// Never assertions: figures are reported, not checked.

import v8 from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface Summary {
  median: number;
  min: number;
  max: number;
  runs: number;
}

export interface Figure extends Summary {
  name: string;
  unit: 'ms';
}

/** Runs `once` `runs` times (after `warmup` unmeasured runs) and returns the median, min and max. */
export async function measure(
  name: string,
  once: () => Promise<unknown> | unknown,
  { runs = 7, warmup = 2 } = {},
): Promise<Figure> {
  for (let i = 0; i < warmup; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(await time(once));
  return { name, unit: 'ms', ...summarize(times) };
}

/** Milliseconds that `once` takes, after a full garbage collection (so no run pays for another's). */
export async function time(once: () => Promise<unknown> | unknown): Promise<number> {
  collectGarbage();
  const start = performance.now();
  await once();
  return performance.now() - start;
}

export function summarize(samples: readonly number[]): Summary {
  if (samples.length === 0) throw new Error('No samples to summarize');
  const sorted = [...samples].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return {
    median: sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2,
    min: sorted[0]!,
    max: sorted.at(-1)!,
    runs: sorted.length,
  };
}

/**
 * `peer[i] / base[i]` for each run both have (runs are paired: taken in the same round, one
 * after the other), summarized. Above 1: the peer costs more than the base.
 */
export function pairedRatio(peer: readonly number[], base: readonly number[]): Summary {
  const count = Math.min(peer.length, base.length);
  return summarize(Array.from({ length: count }, (_, i) => peer[i]! / base[i]!));
}

/**
 * `rounds` paired samples of two subjects, taken one after the other in each round, the order
 * swapped every round (so neither always runs on the other's warm caches): `[peer, base]`.
 */
export async function pairedRounds(
  rounds: number,
  peer: () => Promise<number>,
  base: () => Promise<number>,
): Promise<[number[], number[]]> {
  const peers: number[] = [];
  const bases: number[] = [];
  for (let round = 0; round < rounds; round++) {
    if (round % 2 === 0) {
      bases.push(await base());
      peers.push(await peer());
    } else {
      peers.push(await peer());
      bases.push(await base());
    }
  }
  return [peers, bases];
}

let gc: (() => void) | undefined;

/** A full, synchronous garbage collection, without needing `node --expose-gc`. */
export function collectGarbage(): void {
  if (!gc) {
    v8.setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

export function formatTable(rows: (string | number)[][]): string {
  const cells = rows.map((row) =>
    row.map((cell) => (typeof cell === 'number' ? formatNumber(cell) : cell)),
  );
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n');
}

export function formatNumber(value: number): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}
