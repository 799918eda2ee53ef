// The model's contents after a compaction are kept up to date turn by turn (agents/
// compacted-contents.ts over contents-cache.ts), not rebuilt: at every request they must be
// exactly what building them from scratch gives, from the latest compaction's summary on,
// through compactions, tool calls and rewinds.

import { describe, expect, it } from 'vitest';
import { buildContents } from '../../../src/agents/contents.ts';
import {
  TokenBasedContextCompactor,
  activeEvents,
  isCompactionEvent,
  modelEvents,
  type ScriptedModel,
} from '../../../src/index.ts';
import { compactingAgent, countingSummarizer, lines } from '../../support/compaction.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { inMemoryKind } from '../../support/service-kinds.ts';

describe('contents after a compaction', () => {
  it('are at every request what a build from scratch gives', async () => {
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 150, eventRetentionSize: 3, summarizer }),
    ]);
    const model = agent.model as ScriptedModel;
    const session = await openRunnerSession(inMemoryKind.open(), agent);
    let checked = 0;
    for (let turn = 0; turn < 40; turn++) {
      if (turn === 26) {
        // A rewind of the last turn first: the contents start over from the events it leaves.
        const { events } = await session.read();
        await session.rewind(activeEvents(events).at(-1)!.invocationId);
      }
      await session.run(turn % 4 === 3 ? `weather in City${turn}` : `message ${turn}`);
      const { events } = await session.read();
      // The turn's last request came just before its answer, the turn's last event.
      const beforeAnswer = activeEvents(events).slice(0, -1);
      const expected = buildContents(modelEvents(beforeAnswer), 'chatter', undefined);
      expect(lines(model.requests.at(-1)!.contents), `turn ${turn}`).toEqual(lines(expected));
      checked++;
    }
    const { events } = await session.read();
    expect(events.filter(isCompactionEvent).length).toBeGreaterThan(5);
    expect(checked).toBe(40);
  });
});
