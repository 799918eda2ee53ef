// Where a local model's answer spends its time, thread by thread: a Chromium trace (CDP Tracing,
// the timeline categories and V8's sampling profiler) recorded while the answer streams, summed
// by thread (the page, the runtime worker, wllama's worker) as busy time (its tasks' wall and
// CPU time) and as the functions the profiler caught running (self time). A diagnosis of the
// local model bench, printed, never written.

import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { traceBrowser, type TraceEvent as BaseTraceEvent } from '../browser-trace.ts';

type TraceEvent = BaseTraceEvent<{ name?: string; data?: ProfileChunkData }>;

interface ProfileNode {
  id: number;
  parent?: number;
  callFrame: { functionName: string; url: string; lineNumber?: number };
}

interface ProfileChunkData {
  cpuProfile?: { nodes?: ProfileNode[]; samples?: number[] };
  timeDeltas?: number[];
}

export interface ThreadProfile {
  thread: string;
  /** Its tasks summed: wall time and the thread's own CPU time, ms. */
  wallMs: number;
  cpuMs: number;
  tasks: number;
  /** Sampled self time by function (name and file), ms, the largest first. */
  functions: [string, number][];
}

const CATEGORIES = [
  'toplevel',
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'v8.execute',
  'disabled-by-default-v8.cpu_profiler',
];

/** Starts tracing the browser; the returned function stops and sums the trace by thread. */
export async function traceThreads(
  page: Page,
  /** Where to write the whole trace too (for DevTools' Performance panel), if anywhere. */
  file?: string,
): Promise<() => Promise<ThreadProfile[]>> {
  const stop = await traceBrowser<TraceEvent>(page, CATEGORIES);
  return async () => {
    const events = await stop();
    if (file) writeFileSync(file, JSON.stringify({ traceEvents: events }));
    return byThread(events);
  };
}

function byThread(events: TraceEvent[]): ThreadProfile[] {
  const names = new Map<string, string>();
  for (const e of events)
    if (e.name === 'thread_name') names.set(`${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const threads = new Map<string, { wall: number; cpu: number; tasks: number }>();
  for (const e of events) {
    if (e.ph !== 'X' || (e.name !== 'RunTask' && e.name !== 'ThreadControllerImpl::RunTask'))
      continue;
    const key = `${e.pid}:${e.tid}`;
    const sum = threads.get(key) ?? { wall: 0, cpu: 0, tasks: 0 };
    sum.wall += (e.dur ?? 0) / 1000;
    sum.cpu += (e.tdur ?? 0) / 1000;
    sum.tasks++;
    threads.set(key, sum);
  }
  // The sampling profiler's chunks, by profile id (one profile per isolate: page or worker).
  const nodes = new Map<string, Map<number, ProfileNode>>();
  const selfMs = new Map<string, Map<string, number>>();
  const profileThread = new Map<string, string>();
  for (const e of events) {
    if (e.name === 'Profile' && e.id) profileThread.set(e.id, `${e.pid}:${e.tid}`);
    if (e.name !== 'ProfileChunk' || !e.id) continue;
    const key = profileThread.get(e.id) ?? `${e.pid}:${e.tid}`;
    const known = nodes.get(e.id) ?? new Map<number, ProfileNode>();
    nodes.set(e.id, known);
    for (const node of e.args?.data?.cpuProfile?.nodes ?? []) known.set(node.id, node);
    const samples = e.args?.data?.cpuProfile?.samples ?? [];
    const deltas = e.args?.data?.timeDeltas ?? [];
    const sums = selfMs.get(key) ?? new Map<string, number>();
    selfMs.set(key, sums);
    samples.forEach((id, i) => {
      const frame = known.get(id)?.callFrame;
      const file = frame?.url?.split('/').at(-1) ?? '';
      const name = `${frame?.functionName || '(anonymous)'} ${file}:${frame?.lineNumber ?? ''}`;
      // Each sample stands for the time until the next one.
      const ms = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
      sums.set(name, (sums.get(name) ?? 0) + ms);
    });
  }
  return [...threads]
    .filter(([, sum]) => sum.wall > 5)
    .sort((a, b) => b[1].wall - a[1].wall)
    .map(([key, sum]) => ({
      thread: `${names.get(key) ?? '?'} (${key})`,
      wallMs: Math.round(sum.wall),
      cpuMs: Math.round(sum.cpu),
      tasks: sum.tasks,
      functions: [...(selfMs.get(key) ?? new Map<string, number>())]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 25)
        .map(([name, ms]) => [name, Math.round(ms * 10) / 10] as [string, number]),
    }));
}

export function formatThreads(threads: ThreadProfile[]): string {
  return threads
    .map(
      (t) =>
        `${t.thread}: ${t.wallMs} ms busy (${t.cpuMs} ms CPU) in ${t.tasks} tasks\n` +
        t.functions.map(([name, ms]) => `    ${ms.toFixed(1).padStart(8)} ms  ${name}`).join('\n'),
    )
    .join('\n');
}
