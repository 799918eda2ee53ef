// What plugins cost a turn (issue 32: "≤ 5% with one plugin that does nothing"): the turn of the
// turn-overhead bench (user message → tool call → tool response → final answer, on a model that
// answers at once) on InMemoryRunner, alone and with one plugin that overrides every callback
// ADK has and answers nothing, so each of them is called, at each step, and changes nothing.
// Sessions of 100 and 1,000 turns; rounds alternate the two, so the machine's noise falls on both.
// A runner with no plugins is the turn-overhead bench's figure (callbacks absent cost nothing).
//
// Alone: npx vitest run --project bench test/bench/plugins.bench.ts (about a minute).

import { describe, expect, it } from 'vitest';
import { BasePlugin } from '../../src/index.ts';
import { collectGarbage, pairedRatio, pairedRounds, summarize } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, type BenchResult } from './results-file.ts';
import { trellisInMemory, trellisWithPlugins } from './turns/trellis-session.ts';
import type { Contender } from './turns/turn-shape.ts';

const GROUP = 'plugins';
const LENGTHS = [100, 1_000];
const ROUNDS = 11;
const TURNS_PER_RUN = 1_000;
const MAX_RATIO = 1.05;

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

const WITH_PLUGIN = trellisWithPlugins(
  'Trellis InMemoryRunner + a plugin that does nothing',
  () => [new NothingPlugin()],
);

/** ms per turn over sessions of `turns` turns, enough sessions for TURNS_PER_RUN turns. */
async function msPerTurn(contender: Contender, turns: number): Promise<number> {
  const sessions = Math.max(1, Math.round(TURNS_PER_RUN / turns));
  let total = 0;
  for (let i = 0; i < sessions; i++) {
    const session = await contender.open();
    collectGarbage();
    const start = performance.now();
    for (let turn = 0; turn < turns; turn++) await session.turn(turn);
    total += performance.now() - start;
  }
  return total / (sessions * turns);
}

describe('plugins', () => {
  it('one plugin that does nothing, against none', { timeout: 900_000 }, async () => {
    await msPerTurn(trellisInMemory, 100); // warm-up, not measured
    await msPerTurn(WITH_PLUGIN, 100);
    const results: BenchResult[] = [];
    for (const turns of LENGTHS) {
      const [withPlugin, without] = await pairedRounds(
        ROUNDS,
        () => msPerTurn(WITH_PLUGIN, turns),
        () => msPerTurn(trellisInMemory, turns),
      );
      const params = { turns, measured: 'ms per turn' };
      results.push(figure(GROUP, trellisInMemory.name, params, 'ms', summarize(without)));
      const ratio = pairedRatio(withPlugin, without);
      results.push(
        figure(GROUP, WITH_PLUGIN.name, params, 'ms', summarize(withPlugin), {
          ratio: { vs: trellisInMemory.name, ...ratio },
          target: { text: `≤ ${MAX_RATIO}× no plugin`, met: ratio.median <= MAX_RATIO },
        }),
      );
    }
    await publishNodeResults(GROUP, results);
    for (const result of results) expect(result.median).toBeGreaterThan(0);
  });
});
