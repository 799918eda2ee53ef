// Rewind (time travel) cost against the length of the history: Trellis's `runner.rewindAsync`
// (in memory, and on IndexedDB through fake-indexeddb) against LangGraph's fork from a past
// checkpoint (`graph.updateState` on MemorySaver). With per-invocation checkpoints, Trellis reads
// the target's checkpoint and the current state, so its cost should not grow with the log.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { pairedRatio, summarize, time } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, skipped, type BenchResult } from './results-file.ts';
import { buildThread } from './rewind/langgraph-fork.ts';
import { buildSession, inMemory, indexedDb } from './rewind/trellis-rewind.ts';

const GROUP = 'rewind';
const LENGTHS = [100, 10_000, 100_000];
const RUNS = 5;
const MAX_GROWTH = 2;
const TARGETS = ['before the last turn', 'before the first turn'] as const;
type Target = (typeof TARGETS)[number];

const BASE = inMemory.name;
const LANGGRAPH = '@langchain/langgraph MemorySaver fork (updateState)';
/** A LangGraph fork of 100,000 messages takes 15–45 s: one run keeps `npm run bench` short. */
const LANGGRAPH_RUNS = new Map([[100_000, 1]]);
const LANGGRAPH_NOTE = 'history written in bulk (see BENCHMARKS.md)';
const FEWER_RUNS_NOTE = '1 run: one fork takes 15–45 s';

/** One rewind of one history, ready to run. */
type Rewind = () => Promise<unknown>;

interface Subject {
  name: string;
  length: number;
  runs: number;
  rewinds: Record<Target, Rewind>;
}

async function subjects(): Promise<Subject[]> {
  const all: Subject[] = [];
  for (const length of LENGTHS) {
    for (const backend of [inMemory, indexedDb]) {
      const session = await buildSession(backend, length);
      all.push({
        name: backend.name,
        length,
        runs: RUNS,
        rewinds: {
          'before the last turn': session.beforeLastTurn,
          'before the first turn': session.beforeFirstTurn,
        },
      });
    }
    const thread = await buildThread(length);
    expect(await thread.messageCount()).toBe(length);
    all.push({
      name: LANGGRAPH,
      length,
      runs: LANGGRAPH_RUNS.get(length) ?? RUNS,
      rewinds: {
        'before the last turn': () => thread.fork(thread.beforeLastTurn),
        'before the first turn': () => thread.fork(thread.beforeFirstTurn),
      },
    });
  }
  return all;
}

/** Samples (ms) by subject and target, taken in rounds over every subject. */
async function measureAll(all: Subject[]): Promise<Map<Subject, Record<Target, number[]>>> {
  const samples = new Map(
    all.map((s) => [
      s,
      { 'before the last turn': [], 'before the first turn': [] } as Record<Target, number[]>,
    ]),
  );
  // Warm-up, not measured (the long LangGraph forks are warm from the shorter ones).
  for (const subject of all) {
    if (subject.runs < RUNS) continue;
    for (const target of TARGETS) await subject.rewinds[target]();
  }
  for (let run = 0; run < RUNS; run++) {
    for (let k = 0; k < all.length; k++) {
      const subject = all[(k + run) % all.length]!;
      if (run >= subject.runs) continue;
      for (const target of TARGETS)
        samples.get(subject)![target].push(await time(subject.rewinds[target]));
    }
  }
  return samples;
}

function toResults(samples: Map<Subject, Record<Target, number[]>>): BenchResult[] {
  const find = (name: string, length: number) =>
    [...samples].find(([s]) => s.name === name && s.length === length)!;
  const results: BenchResult[] = [];
  for (const name of [inMemory.name, indexedDb.name, LANGGRAPH]) {
    for (const target of TARGETS) {
      for (const length of LENGTHS) {
        const [subject, own] = find(name, length);
        const extra: Pick<BenchResult, 'ratio' | 'note'> = {};
        if (name !== BASE)
          extra.ratio = { vs: BASE, ...pairedRatio(own[target], find(BASE, length)[1][target]) };
        if (name === LANGGRAPH)
          extra.note =
            subject.runs < RUNS ? `${LANGGRAPH_NOTE}; ${FEWER_RUNS_NOTE}` : LANGGRAPH_NOTE;
        results.push(
          figure(GROUP, name, { events: length, target }, 'ms', summarize(own[target]), extra),
        );
      }
      const longest = find(name, LENGTHS.at(-1)!)[1][target];
      const shortest = find(name, LENGTHS[0]!)[1][target];
      const growth = pairedRatio(longest, shortest);
      results.push(
        figure(
          GROUP,
          name,
          { events: LENGTHS.at(-1)!, target, measured: `growth: ÷ ${LENGTHS[0]} events` },
          '×',
          growth,
          name === LANGGRAPH
            ? LANGGRAPH_RUNS.has(LENGTHS.at(-1)!)
              ? { note: FEWER_RUNS_NOTE }
              : {}
            : {
                target: {
                  text: `rewind at 100k events ≤ ${MAX_GROWTH}× rewind at 100 events`,
                  met: growth.median <= MAX_GROWTH,
                },
              },
        ),
      );
    }
  }
  results.push(
    skipped(GROUP, '@google/adk', { target: 'any' }, 'ms', 'n/a: no rewind in @google/adk'),
  );
  return results;
}

describe('rewind', () => {
  it('rewind cost against the length of the history', { timeout: 900_000 }, async () => {
    const results = toResults(await measureAll(await subjects()));
    await publishNodeResults(GROUP, results);
    expect(results.length).toBeGreaterThan(0);
  });
});
