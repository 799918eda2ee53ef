// Profiles a function with the V8 CPU profiler (node:inspector) and sums self time by function,
// to find what costs what when a target is missed. Used by hand, not by `npm run bench`.

import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
  children?: number[];
}

export interface Hotspot {
  function: string;
  where: string;
  selfMs: number;
  /** Self plus callees, counted once per sample even under recursion. */
  totalMs: number;
}

/** Runs `work` under the profiler and returns the hottest functions, by self and total time. */
export async function profile(
  work: () => Promise<void>,
  top = 25,
): Promise<{ bySelf: Hotspot[]; byTotal: Hotspot[] }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  await session.post('Profiler.start');
  await work();
  const { profile } = (await session.post('Profiler.stop')) as unknown as {
    profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] };
  };
  session.disconnect();

  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const where = new Map<string, string>();
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i] ?? 0) / 1000;
    const seen = new Set<string>();
    for (
      let at: number | undefined = id, first = true;
      at !== undefined;
      at = parent.get(at), first = false
    ) {
      const { callFrame } = nodes.get(at)!;
      const key = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.split('/').slice(-2).join('/')}:${callFrame.lineNumber + 1}`;
      where.set(key, callFrame.url);
      if (first) self.set(key, (self.get(key) ?? 0) + ms);
      if (!seen.has(key)) total.set(key, (total.get(key) ?? 0) + ms);
      seen.add(key);
    }
  });
  const hotspots = [...total.keys()].map((key) => ({
    function: key,
    where: where.get(key)!,
    selfMs: self.get(key) ?? 0,
    totalMs: total.get(key)!,
  }));
  return {
    bySelf: [...hotspots].sort((a, b) => b.selfMs - a.selfMs).slice(0, top),
    byTotal: [...hotspots].sort((a, b) => b.totalMs - a.totalMs).slice(0, top),
  };
}
