// Context compaction's cost per turn: a 500-turn chat on a 4k-token window whose agent compacts
// (ADK 2.0's TokenBasedContextCompactor, a scripted summariser that answers at once), against
// the same chat with no compactor, in paired rounds (the order swapped each round) so the
// machine's noise falls on both. The compacting chat also makes the summariser's calls and
// judges the context before every model call; the other sends ever longer requests (which an
// instant scripted model does not charge for). That every request stays under the window is a
// unit test's (test/unit/context/long-chat.test.ts), not the bench's.
//
// Alone: npx vitest run --project bench test/bench/compaction.bench.ts (about a minute).

import { describe, expect, it } from 'vitest';
import { collectGarbage, pairedRatio, pairedRounds, summarize } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure, type BenchResult } from './results-file.ts';
import { openLongChat } from '../support/long-chat.ts';

const GROUP = 'context compaction';
const TURNS = 500;
const ROUNDS = 5;
const COMPACTING = 'Trellis, TokenBasedContextCompactor (threshold 2,500 of 4,096 tokens)';
const PLAIN = 'Trellis, no compactor';

/** ms per turn over a whole fresh chat. */
async function msPerTurn(compacting: boolean): Promise<number> {
  const chat = await openLongChat(compacting);
  collectGarbage();
  const started = performance.now();
  for (let n = 0; n < TURNS; n++) await chat.turn(n);
  return (performance.now() - started) / TURNS;
}

describe('context compaction', () => {
  it('a turn of a 500-turn chat, compacting against not', { timeout: 600_000 }, async () => {
    await msPerTurn(true); // warm-up, both
    await msPerTurn(false);
    const [compacting, plain] = await pairedRounds(
      ROUNDS,
      () => msPerTurn(true),
      () => msPerTurn(false),
    );
    const params = { turns: TURNS, measured: 'ms per turn, whole chat' };
    const results: BenchResult[] = [
      figure(GROUP, COMPACTING, params, 'ms', summarize(compacting), {
        ratio: { vs: PLAIN, ...pairedRatio(compacting, plain) },
        note: 'the summariser is a scripted model that answers at once: a real one adds its own call',
      }),
      figure(GROUP, PLAIN, params, 'ms', summarize(plain)),
    ];
    await publishNodeResults(GROUP, results);
    expect(results).toHaveLength(2);
  });
});
