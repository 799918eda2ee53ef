// Timing helpers for the benchmarks: medians of repeated runs, never assertions.

export interface Figure {
  name: string;
  unit: 'ms';
  median: number;
  min: number;
  max: number;
  runs: number;
}

/** Runs `once` `runs` times (after `warmup` unmeasured runs) and returns the median, min and max. */
export async function measure(
  name: string,
  once: () => Promise<unknown> | unknown,
  { runs = 7, warmup = 2 } = {},
): Promise<Figure> {
  for (let i = 0; i < warmup; i++) await once();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await once();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return {
    name,
    unit: 'ms',
    median: times[Math.floor(times.length / 2)]!,
    min: times[0]!,
    max: times.at(-1)!,
    runs,
  };
}

export function formatTable(rows: (string | number)[][]): string {
  const cells = rows.map((row) =>
    row.map((cell) => (typeof cell === 'number' ? format(cell) : cell)),
  );
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  return cells.map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ')).join('\n');
}

function format(value: number): string {
  if (value >= 100) return value.toFixed(0);
  if (value >= 1) return value.toFixed(2);
  return value.toFixed(3);
}
