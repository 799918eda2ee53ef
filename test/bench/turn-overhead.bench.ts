// Framework overhead per turn, against the length of the session: Trellis (in memory, and on
// IndexedDB through fake-indexeddb) against @google/adk and @langchain/langgraph, each running
// the same turn (user message → tool call → tool response → final answer) on a model that
// answers at once. Rounds interleave the frameworks, so each ratio compares runs taken side by
// side.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { collectGarbage, pairedRatio, summarize } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, skipped, type BenchResult } from './results-file.ts';
import { adkInMemory } from './turns/adk-session.ts';
import { langGraphMemorySaver } from './turns/langgraph-session.ts';
import { trellisInMemory, trellisIndexedDb } from './turns/trellis-session.ts';
import { FINAL_ANSWER, type Contender } from './turns/turn-shape.ts';

const GROUP = 'turn overhead';
const LENGTHS = [10, 100, 1_000, 10_000];
/** Lengths at which growth is reported: the last 10% of turns ÷ a whole 10-turn session. */
const GROWTH_AT = [1_000, 10_000];
const RUNS = 5;
const BASE = trellisInMemory;
const PEERS = [adkInMemory, langGraphMemorySaver];
const CONTENDERS = [trellisInMemory, trellisIndexedDb, ...PEERS];
const MAX_MS_PER_TURN_AT_1000 = 0.3;
const MAX_GROWTH = 1.5;

/** A short session is too quick to time alone: a run is as many sessions as make this many turns. */
const TURNS_PER_RUN = 200;

const SQUARE = 'so a session grows with the square of its turns';
/** Fewer runs, or none, where a run would not fit the budget of `npm run bench` (~10 minutes). */
const LIMITS = new Map<Contender, Map<number, { runs: number; why: string }>>([
  [
    adkInMemory,
    new Map([
      [1_000, { runs: 3, why: '3 runs: a 1,000-turn session takes 40–55 s' }],
      [
        10_000,
        {
          runs: 0,
          why: `skipped: one 10,000-turn session would take over an hour: every turn copies the whole session, ${SQUARE}`,
        },
      ],
    ]),
  ],
  [
    trellisIndexedDb,
    new Map([[10_000, { runs: 3, why: '3 runs: a 10,000-turn session takes 10–20 s' }]]),
  ],
  [
    langGraphMemorySaver,
    new Map(
      [1_000, 10_000].map((turns) => [
        turns,
        {
          runs: 0,
          why: `skipped: one ${turns.toLocaleString('en-US')}-turn session would take ${turns === 1_000 ? 'minutes (3–8 estimated here)' : 'hours'}: every checkpoint serialises the whole message list, ${SQUARE}`,
        },
      ]),
    ),
  ],
]);

function runsOf(contender: Contender, turns: number): number {
  return LIMITS.get(contender)?.get(turns)?.runs ?? RUNS;
}

interface Samples {
  /** ms per turn over whole sessions, one per run. */
  session: number[];
  /** ms per turn over the last 10% of the sessions' turns, one per run. */
  tail: number[];
}

/** One run: fresh sessions of `turns` turns, timed turn by turn. */
async function run(contender: Contender, turns: number) {
  const sessions = Math.max(1, Math.round(TURNS_PER_RUN / turns));
  const tailFrom = turns - Math.max(1, Math.round(turns / 10));
  let total = 0;
  let tail = 0;
  for (let i = 0; i < sessions; i++) {
    const session = await contender.open();
    collectGarbage();
    const start = performance.now();
    let tailStart = start;
    for (let turn = 0; turn < turns; turn++) {
      if (turn === tailFrom) tailStart = performance.now();
      await session.turn(turn);
    }
    const end = performance.now();
    total += end - start;
    tail += end - tailStart;
  }
  return { session: total / (sessions * turns), tail: tail / (sessions * (turns - tailFrom)) };
}

/** Every contender at every length, in rounds; the order turns round by round. */
async function measureAll(): Promise<Map<Contender, Map<number, Samples>>> {
  for (const contender of CONTENDERS) await run(contender, 100); // warm-up, not measured
  const samples = new Map(CONTENDERS.map((c) => [c, new Map<number, Samples>()]));
  for (const turns of LENGTHS) {
    const measured = CONTENDERS.filter((c) => runsOf(c, turns) > 0);
    for (const c of measured) samples.get(c)!.set(turns, { session: [], tail: [] });
    for (let round = 0; round < RUNS; round++) {
      for (let k = 0; k < measured.length; k++) {
        const contender = measured[(k + round) % measured.length]!;
        if (round >= runsOf(contender, turns)) continue;
        const { session, tail } = await run(contender, turns);
        const into = samples.get(contender)!.get(turns)!;
        into.session.push(session);
        into.tail.push(tail);
      }
    }
  }
  return samples;
}

function toResults(samples: Map<Contender, Map<number, Samples>>): BenchResult[] {
  const base = samples.get(BASE)!;
  const results: BenchResult[] = [];
  for (const contender of CONTENDERS) {
    for (const turns of LENGTHS) {
      const limit = LIMITS.get(contender)?.get(turns);
      if (limit?.runs === 0) {
        results.push(
          skipped(
            GROUP,
            contender.name,
            { turns, measured: 'whole session' },
            'ms/turn',
            limit.why,
          ),
        );
        continue;
      }
      const own = samples.get(contender)!.get(turns)!;
      for (const span of ['session', 'tail'] as const) {
        const params = {
          turns,
          measured: span === 'session' ? 'whole session' : 'last 10% of turns',
        };
        const extra: Pick<BenchResult, 'ratio' | 'target' | 'note'> = limit
          ? { note: limit.why }
          : {};
        if (contender !== BASE) {
          const ratio = pairedRatio(own[span], base.get(turns)![span]);
          extra.ratio = { vs: BASE.name, ...ratio };
          if (PEERS.includes(contender) && span === 'session') {
            extra.target = {
              text: `Trellis in memory below ${contender.name} at ${turns.toLocaleString('en-US')} turns`,
              met: ratio.median > 1,
            };
          }
        } else if (turns === 1_000 && span === 'session') {
          const median = summarize(own.session).median;
          extra.target = {
            text: `≤ ${MAX_MS_PER_TURN_AT_1000} ms per turn in memory at 1,000 turns`,
            met: median <= MAX_MS_PER_TURN_AT_1000,
          };
        }
        results.push(figure(GROUP, contender.name, params, 'ms/turn', summarize(own[span]), extra));
      }
    }
    const shortest = samples.get(contender)!.get(10)!;
    for (const turns of GROWTH_AT) {
      const longest = samples.get(contender)!.get(turns);
      if (!longest) continue;
      const growth = pairedRatio(longest.tail, shortest.session);
      results.push(
        figure(
          GROUP,
          contender.name,
          { turns, measured: 'growth: last 10% of turns ÷ a whole 10-turn session' },
          '×',
          growth,
          contender === BASE
            ? {
                target: {
                  text: `per-turn overhead flat in session length (growth ≤ ${MAX_GROWTH}×)`,
                  met: growth.median <= MAX_GROWTH,
                },
              }
            : {},
        ),
      );
    }
  }
  return results;
}

describe('turn overhead', () => {
  it('every framework runs the same turn: a tool call, its response, the final answer', async () => {
    for (const contender of CONTENDERS) {
      const session = await contender.open();
      expect([await session.turn(0), await session.turn(1)], contender.name).toEqual([
        FINAL_ANSWER,
        FINAL_ANSWER,
      ]);
    }
  });

  it('per turn, at 10, 100, 1,000 and 10,000 turns a session', { timeout: 1_200_000 }, async () => {
    const results = toResults(await measureAll());
    await publishNodeResults(GROUP, results);
    expect(results.length).toBeGreaterThan(0);
  });
});
