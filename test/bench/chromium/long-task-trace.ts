// What the page's long tasks are made of, from a Chromium trace (CDP Tracing, the DevTools
// timeline categories) recorded while they happen: every task of the page's main thread over
// 50 ms, its wall time and its own CPU time (the thread's time: a loaded machine stretches wall
// time without the page doing more), and where its wall time went — style, layout, paint, GC,
// the rest (mostly JS).

import type { Page } from 'playwright-core';
import { traceBrowser, type TraceEvent } from './browser-trace.ts';

export interface TracedLongTask {
  wallMs: number;
  cpuMs: number;
  /** Wall time by kind, ms. */
  kinds: Record<string, number>;
}

export interface LongTaskTrace {
  /** The longest task of the main thread, long or not. */
  longest: { wallMs: number; cpuMs: number };
  tasks: TracedLongTask[];
  /** Summed over every long task, ms. */
  wallMs: number;
  cpuMs: number;
  kinds: Record<string, number>;
}

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline'];
const LONG_US = 50_000;

/** Rendering and GC steps of a task, by trace event name; the rest of a task is "JS and other". */
const KINDS: Record<string, string> = {
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'paint',
  Paint: 'paint',
  Layerize: 'paint',
  UpdateLayer: 'paint',
  MinorGC: 'GC',
  MajorGC: 'GC',
};

/** Starts tracing the page; the returned function stops and summarizes its long tasks. */
export async function traceLongTasks(page: Page): Promise<() => Promise<LongTaskTrace>> {
  const stop = await traceBrowser<TraceEvent>(page, CATEGORIES);
  return async () => summarize(await stop());
}

function summarize(events: TraceEvent[]): LongTaskTrace {
  // The page's main thread: the renderer main thread that ran the most.
  const mains = new Set(
    events
      .filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const busy = new Map<string, number>();
  for (const e of events) {
    const thread = `${e.pid}:${e.tid}`;
    if (e.name === 'RunTask' && mains.has(thread))
      busy.set(thread, (busy.get(thread) ?? 0) + (e.dur ?? 0));
  }
  const main = [...busy].sort((a, b) => b[1] - a[1])[0]?.[0];
  const onMain = events.filter((e) => `${e.pid}:${e.tid}` === main && e.ph === 'X');
  const runTasks = onMain.filter((e) => e.name === 'RunTask');
  const longest = runTasks.reduce<TraceEvent | undefined>(
    (max, e) => (!max || (e.dur ?? 0) > (max.dur ?? 0) ? e : max),
    undefined,
  );
  const tasks = runTasks
    .filter((e) => (e.dur ?? 0) > LONG_US)
    .map((task): TracedLongTask => {
      const end = task.ts + task.dur!;
      const kinds: Record<string, number> = {};
      let accounted = 0;
      for (const e of onMain) {
        const kind = KINDS[e.name];
        if (!kind || e.ts < task.ts || e.ts >= end) continue;
        kinds[kind] = (kinds[kind] ?? 0) + e.dur! / 1000;
        accounted += e.dur! / 1000;
      }
      kinds['JS and other'] = task.dur! / 1000 - accounted;
      return { wallMs: task.dur! / 1000, cpuMs: (task.tdur ?? 0) / 1000, kinds };
    });
  const kinds: Record<string, number> = {};
  for (const task of tasks)
    for (const [kind, ms] of Object.entries(task.kinds)) kinds[kind] = (kinds[kind] ?? 0) + ms;
  const round = (record: Record<string, number>) =>
    Object.fromEntries(
      Object.entries(record)
        .sort((a, b) => b[1] - a[1])
        .map(([kind, ms]) => [kind, Math.round(ms)]),
    );
  return {
    longest: {
      wallMs: Math.round((longest?.dur ?? 0) / 1000),
      cpuMs: Math.round((longest?.tdur ?? 0) / 1000),
    },
    tasks: tasks.map((task) => ({
      wallMs: Math.round(task.wallMs),
      cpuMs: Math.round(task.cpuMs),
      kinds: round(task.kinds),
    })),
    wallMs: Math.round(tasks.reduce((sum, task) => sum + task.wallMs, 0)),
    cpuMs: Math.round(tasks.reduce((sum, task) => sum + task.cpuMs, 0)),
    kinds: round(kinds),
  };
}
