// Issue 15's canvas budget, in headless Chromium against the production app: a flow of 300 nodes
// (no saved positions: the automatic layout places them, the worst case) opened on the Flows view's
// canvas, and one of its nodes dragged by the mouse, beside a 10-node flow in the same run.
// Figures, never assertions: the time from choosing the Canvas tab to every node drawn (measured
// and visible), and the frame times while a node is dragged (p95 of the intervals between animation
// frames). Writes the "flow canvas" group of test/bench/results.json's chromium part and the tables
// of BENCHMARKS.md.
//
// Alone: npx vitest run --project bench test/bench/chromium/canvas.bench.ts (about 2 minutes).

import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { launch } from '../../e2e/browser.ts';
import { nodeMachine } from '../machine.ts';
import { summarize } from '../measure.ts';
import { textTable, updateBenchmarksMd } from '../report.ts';
import { mergeResults, readResults, type BenchResult } from '../results-file.ts';
import { buildAndServe } from './servers.ts';

const GROUP = 'flow canvas';
const SIZES = [10, 300] as const;
const RUNS = 5;
const DRAG_STEPS = 60;

/** A flow of `size` nodes: start, agents in a chain that forks every ten nodes, then end. */
function bigFlow(size: number) {
  const nodes: Record<string, unknown>[] = [{ id: 'start', type: 'start' }];
  const edges: Record<string, unknown>[] = [];
  let previous = 'start';
  for (let i = 1; i < size - 1; i++) {
    const id = `step_${i}`;
    nodes.push({ id, type: 'agent', instruction: `Step ${i}: {{question}}` });
    edges.push({ from: i % 10 === 1 && i > 10 ? `step_${i - 10}` : previous, to: id });
    previous = id;
  }
  nodes.push({ id: 'end', type: 'end' });
  edges.push({ from: previous, to: 'end' });
  return { name: `big-${size}`, nodes, edges };
}

/** Milliseconds from choosing the Canvas tab to `count` nodes drawn (measured, visible). */
function openCanvas(page: Page, count: number): Promise<number> {
  return page.evaluate(
    (count) =>
      new Promise<number>((resolve) => {
        const tab = document.getElementById('flow-tab-canvas') as HTMLButtonElement;
        const started = performance.now();
        tab.click();
        const check = () => {
          const drawn = [...document.querySelectorAll<HTMLElement>('.react-flow__node')].filter(
            (node) => node.style.visibility !== 'hidden',
          ).length;
          if (drawn >= count) resolve(performance.now() - started);
          else requestAnimationFrame(check);
        };
        requestAnimationFrame(check);
      }),
    count,
  );
}

/** The intervals between animation frames while a node is dragged across the canvas. */
async function dragFrames(page: Page, nodeId: string): Promise<number[]> {
  const node = page.locator(`.react-flow__node[data-id="${nodeId}"]`);
  await node.scrollIntoViewIfNeeded();
  const box = (await node.boundingBox())!;
  await page.evaluate(() => {
    const frames: number[] = [];
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__frames = frames;
    w.__recording = true;
    let last = performance.now();
    const tick = (now: number) => {
      frames.push(now - last);
      last = now;
      if (w.__recording) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.down();
  for (let step = 1; step <= DRAG_STEPS; step++) {
    await page.mouse.move(box.x + box.width / 2 + step * 4, box.y + box.height / 2 + step * 2);
  }
  await page.mouse.up();
  return page.evaluate(() => {
    const w = window as unknown as { __frames: number[]; __recording: boolean };
    w.__recording = false;
    return w.__frames.slice(1);
  });
}

function p95(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]!;
}

it(
  'Chromium: a 300-node flow on the canvas, opened and dragged',
  { timeout: 600_000 },
  async () => {
    const served = await buildAndServe();
    const opens = new Map<number, number[]>(SIZES.map((size) => [size, []]));
    const frames = new Map<number, number[]>(SIZES.map((size) => [size, []]));
    let version = 'unknown';
    try {
      const browser = await launch({ viewport: { width: 1440, height: 900 } });
      try {
        const { page } = browser;
        version = browser.context.browser()?.version() ?? version;
        for (let run = 0; run < RUNS; run++) {
          for (const size of run % 2 === 0 ? SIZES : [...SIZES].reverse()) {
            await page.goto(served.appUrl);
            await page.getByLabel('Message').and(page.locator(':enabled')).waitFor();
            await page.getByRole('button', { name: /^Flows/ }).click();
            // The example opens first; then a new flow, drawn (the canvas chunk is in)
            await page.locator('.react-flow__node[data-id="classify"]').waitFor();
            await page.getByRole('button', { name: 'New flow' }).click();
            // (the last run's flow, as a draft, when there is one: it is replaced below)
            await page.locator('.react-flow__node[data-id="start"]').waitFor();
            await page.getByRole('tab', { name: 'Code' }).click();
            // The flow's JSON, as pasted into the code view.
            await page.getByLabel('Flow JSON').evaluate(
              (box, json) => {
                const area = box as HTMLTextAreaElement;
                area.value = json;
                area.dispatchEvent(new Event('input', { bubbles: true }));
              },
              JSON.stringify(bigFlow(size), null, 2),
            );
            opens.get(size)!.push(await openCanvas(page, size));
            frames.get(size)!.push(p95(await dragFrames(page, 'step_1')));
          }
          console.log(`run ${run + 1} of ${RUNS}`);
        }
      } finally {
        await browser.close();
      }
    } finally {
      await served.close();
    }

    const browserName = `Chromium ${version}`;
    const figure = (
      name: string,
      size: number,
      unit: string,
      samples: number[],
      base: number[],
      target?: { text: string; limit: number },
    ): BenchResult => {
      const summary = summarize(samples);
      const ratios = samples.map((sample, i) => sample / base[i]!);
      return {
        group: GROUP,
        name,
        params: { nodes: size },
        unit,
        median: summary.median,
        min: summary.min,
        max: summary.max,
        runs: samples.length,
        ...(size !== SIZES[0] ? { ratio: { vs: `${SIZES[0]} nodes`, ...summarize(ratios) } } : {}),
        ...(target ? { target: { text: target.text, met: summary.median <= target.limit } } : {}),
      };
    };
    const results = SIZES.flatMap((size) => [
      figure(
        'open on the canvas (Canvas tab to every node drawn)',
        size,
        'ms',
        opens.get(size)!,
        opens.get(SIZES[0])!,
        size === 300 ? { text: 'opens in ≤ 300 ms', limit: 300 } : undefined,
      ),
      figure(
        'frame time while dragging a node (p95)',
        size,
        'ms',
        frames.get(size)!,
        frames.get(SIZES[0])!,
        size === 300 ? { text: 'frames under 20 ms at p95', limit: 20 } : undefined,
      ),
    ]);
    const existing = (await readResults()).groups.chromium;
    const date = new Date().toISOString();
    const about = existing
      ? { machine: existing.machine, date: existing.date, browser: existing.browser ?? browserName }
      : { machine: { ...nodeMachine(), runtime: browserName }, date, browser: browserName };
    results[0]!.note = `taken ${date} on ${browserName}`;
    const file = await mergeResults('chromium', about, GROUP, results);
    await updateBenchmarksMd(file);
    console.log(`${browserName}\n${textTable(results)}`);
  },
);
