// What plugins cost a turn (issue 32: "≤ 5% with one plugin that does nothing"): the turn of the
// turn-overhead bench (user message → tool call → tool response → final answer, on a model that
// answers at once) with a plugin against the same runner without one. Two plugins that do
// nothing: ADK's reading, a BasePlugin subclass that overrides nothing (every callback of ADK's
// BasePlugin answers nothing; Trellis does not call one that is not overridden), and the strict
// one, a plugin that overrides all twelve callbacks ADK has, each answering nothing, so each is
// called at each step and changes nothing.
//
// How: the two sessions of a round run turn by turn, one turn each, the order swapped every turn,
// and each turn is timed; a round's figure is the median turn of each. The per-turn median, not
// the sum: a session's sum is mostly the collector's pauses for the whole process's heap (the
// mean turn is 2–3× the median), which fall on either side at random and made the ratio of sums
// swing ±30% from round to round; the median of paired turns of the same runner measures 1.00
// (0.98–1.01) against itself. A runner with no plugin is the turn-overhead bench's figure.
//
// Alone: npx vitest run --project bench test/bench/plugins.bench.ts (about two minutes).

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { BasePlugin } from '../../src/index.ts';
import { collectGarbage, summarize } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, type BenchResult } from './results-file.ts';
import {
  onIndexedDb,
  trellisInMemory,
  trellisIndexedDb,
  trellisWithPlugins,
} from './turns/trellis-session.ts';
import type { Contender } from './turns/turn-shape.ts';

const GROUP = 'plugins';
const MAX_RATIO = 1.05;

/** Overrides nothing: what ADK's BasePlugin does by itself. */
class EmptyPlugin extends BasePlugin {
  constructor() {
    super('empty');
  }
}

/** Every callback a plugin can have, each answering nothing. */
class NothingPlugin extends BasePlugin {
  constructor() {
    super('nothing');
  }
  override onUserMessageCallback() {
    return undefined;
  }
  override beforeRunCallback() {
    return undefined;
  }
  override onEventCallback() {
    return undefined;
  }
  override afterRunCallback() {}
  override beforeAgentCallback() {
    return undefined;
  }
  override afterAgentCallback() {
    return undefined;
  }
  override beforeModelCallback() {
    return undefined;
  }
  override afterModelCallback() {
    return undefined;
  }
  override onModelErrorCallback() {
    return undefined;
  }
  override beforeToolCallback() {
    return undefined;
  }
  override afterToolCallback() {
    return undefined;
  }
  override onToolErrorCallback() {
    return undefined;
  }
}

interface Case {
  base: Contender;
  peer: Contender;
  turns: number;
  rounds: number;
}

const EMPTY = trellisWithPlugins('Trellis InMemoryRunner + a plugin that overrides nothing', () => [
  new EmptyPlugin(),
]);
const NOTHING = trellisWithPlugins(
  'Trellis InMemoryRunner + a plugin whose 12 callbacks answer nothing',
  () => [new NothingPlugin()],
);
/** The app's runner (IndexedDB), with the strict plugin. */
const INDEXED_DB_NOTHING = onIndexedDb(
  'Trellis IndexedDB (fake-indexeddb) + a plugin whose 12 callbacks answer nothing',
  () => [new NothingPlugin()],
);

const CASES: Case[] = [
  { base: trellisInMemory, peer: EMPTY, turns: 100, rounds: 30 },
  { base: trellisInMemory, peer: NOTHING, turns: 100, rounds: 30 },
  { base: trellisInMemory, peer: EMPTY, turns: 1_000, rounds: 5 },
  { base: trellisInMemory, peer: NOTHING, turns: 1_000, rounds: 5 },
  { base: trellisIndexedDb, peer: INDEXED_DB_NOTHING, turns: 100, rounds: 10 },
];

/** One round: a session of each, `turns` turns, run turn by turn; their median turns in ms. */
async function pairedSessions(
  base: Contender,
  peer: Contender,
  turns: number,
): Promise<[number, number]> {
  const sessions = [await base.open(), await peer.open()] as const;
  const times: [number[], number[]] = [[], []];
  collectGarbage();
  for (let turn = 0; turn < turns; turn++) {
    for (const which of turn % 2 === 0 ? [0, 1] : [1, 0]) {
      const start = performance.now();
      await sessions[which]!.turn(turn);
      times[which]!.push(performance.now() - start);
    }
  }
  return [summarize(times[0]).median, summarize(times[1]).median];
}

function paramsOf(turns: number) {
  return { turns, measured: 'median ms per turn' };
}

describe('plugins', () => {
  it('a plugin that does nothing, against none', { timeout: 900_000 }, async () => {
    for (const { base, peer } of CASES) await pairedSessions(base, peer, 100); // warm-up
    const results: BenchResult[] = [];
    /** Each runner's own turns, in every round it ran, by runner and session length. */
    const baseTurns = new Map<string, { name: string; turns: number; medians: number[] }>();
    for (const { base, peer, turns, rounds } of CASES) {
      const bases: number[] = [];
      const peers: number[] = [];
      for (let round = 0; round < rounds; round++) {
        const [b, p] = await pairedSessions(base, peer, turns);
        bases.push(b);
        peers.push(p);
      }
      const key = `${base.name}\u0000${turns}`;
      const pooled = baseTurns.get(key) ?? { name: base.name, turns, medians: [] };
      pooled.medians.push(...bases);
      baseTurns.set(key, pooled);
      const ratio = summarize(peers.map((p, i) => p / bases[i]!));
      results.push(
        figure(GROUP, peer.name, paramsOf(turns), 'ms', summarize(peers), {
          ratio: { vs: base.name, ...ratio },
          target: { text: `≤ ${MAX_RATIO}× no plugin`, met: ratio.median <= MAX_RATIO },
        }),
      );
    }
    for (const { name, turns, medians } of baseTurns.values())
      results.unshift(figure(GROUP, name, paramsOf(turns), 'ms', summarize(medians)));
    await publishNodeResults(GROUP, results);
    for (const result of results) expect(result.median).toBeGreaterThan(0);
  });
});
