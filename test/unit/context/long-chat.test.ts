// Issue 32's measure: a 500-turn chat on a 4k-token local model keeps every request under its
// window, by ADK's estimate (about 4 characters a token), the summariser's requests included.
// (Its cost per turn against a chat that does not compact: test/bench/compaction.bench.ts.)

import { describe, expect, it } from 'vitest';
import { isCompactionEvent } from '../../../src/index.ts';
import { THRESHOLD_TOKENS, WINDOW_TOKENS, openLongChat } from '../../support/long-chat.ts';

describe('a 500-turn chat on a 4k-token window', () => {
  it('keeps every request under the window', { timeout: 120_000 }, async () => {
    const chat = await openLongChat(true);
    for (let n = 0; n < 500; n++) await chat.turn(n);
    const { events } = (await chat.runner.sessionService.getSession({
      appName: 'app',
      userId: 'u',
      sessionId: chat.sessionId,
    }))!;
    // 500 turns of 2 events, every fifth with a call and its response too; nothing dropped.
    expect(events.filter((event) => !isCompactionEvent(event))).toHaveLength(500 * 2 + 100 * 2);
    expect(events.filter(isCompactionEvent).length).toBeGreaterThan(10);
    expect(chat.agentRequests).toHaveLength(600);
    expect(Math.max(...chat.agentRequests)).toBeLessThan(WINDOW_TOKENS);
    expect(Math.max(...chat.summaryRequests)).toBeLessThan(WINDOW_TOKENS);
    // It does compact near the threshold, not far below it.
    expect(Math.max(...chat.agentRequests)).toBeGreaterThan(THRESHOLD_TOKENS * 0.8);
  });

  it('without a compactor, the same chat outgrows the window', { timeout: 120_000 }, async () => {
    const chat = await openLongChat(false);
    for (let n = 0; n < 100; n++) await chat.turn(n);
    expect(Math.max(...chat.agentRequests)).toBeGreaterThan(WINDOW_TOKENS);
  });
});
