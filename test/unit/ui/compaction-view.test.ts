// What the page shows of context compaction: the header's meter ("3.1k of 4k tokens", its colour
// near the limit, its words for a screen reader), History's note under the turn that compacted,
// and the chat's divider where it happened, every message still shown.

import { describe, expect, it } from 'vitest';
import { createEvent, type Event } from '../../../src/core/event.ts';
import { chatItems } from '../../../src/ui/chat/chat-model.ts';
import { contextMeter, shortTokens } from '../../../src/ui/chat/context-meter-model.ts';
import {
  compactionNotes,
  compactionsByTurn,
  compactionTitle,
} from '../../../src/ui/history/compaction-model.ts';

describe('the context meter', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [3100, '3.1k'],
    [4000, '4k'],
    [4096, '4.1k'],
    [12_345, '12k'],
    [128_000, '128k'],
    [1_048_576, '1M'],
    [2_097_152, '2.1M'],
  ])('writes %i tokens as %s', (tokens, text) => {
    expect(shortTokens(tokens)).toBe(text);
  });

  it('says the count against the window, with the exact numbers for a screen reader', () => {
    const meter = contextMeter({
      tokens: 3100,
      counted: true,
      window: { tokens: 4000, source: 'set' },
      compactAt: 3000,
    })!;
    expect(meter.text).toBe('3.1k of 4k tokens');
    expect(meter.valueText).toBe(
      '3,100 of 4,000 tokens; past 3,000, earlier messages are summarised for the model',
    );
    expect(meter.fill).toBeCloseTo(0.775);
    expect(meter.level).toBe('full');
    expect(meter.title).toMatch(/^The model’s own count.*as set in Settings → Providers/);
  });

  it.each([
    [1000, 'ok'],
    [2399, 'ok'],
    [2400, 'near'],
    [2999, 'near'],
    [3000, 'full'],
    [9000, 'full'],
  ])('at %i of a window compacted at 3,000 is %s', (tokens, level) => {
    const use = { tokens, counted: false, window: { tokens: 4000, source: 'known' as const } };
    expect(contextMeter({ ...use, compactAt: 3000 })!.level).toBe(level);
    // The bar never overflows.
    expect(contextMeter(use)!.fill).toBeLessThanOrEqual(1);
  });

  it('shows the count alone when the window is unknown, and nothing for an empty chat', () => {
    const meter = contextMeter({ tokens: 3100, counted: false })!;
    expect(meter.text).toBe('3.1k tokens');
    expect(meter.fill).toBeUndefined();
    expect(meter.title).toMatch(/^Estimated.*window is unknown, so long chats are not compacted/);
    expect(contextMeter({ tokens: 0, counted: false })).toBeUndefined();
    expect(contextMeter(undefined)).toBeUndefined();
    // A known window shows from the start, empty.
    expect(
      contextMeter({ tokens: 0, counted: false, window: { tokens: 512, source: 'set' } })!.text,
    ).toBe('0 of 512 tokens');
  });
});

function message(id: string, invocationId: string, author: string, text: string): Event {
  return {
    ...createEvent({
      invocationId,
      author,
      content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
    }),
    id,
  };
}

/** Three turns; the third compacted the first two (and the summary is what the model sees). */
function conversation(summary = 'They talked about the sky.'): Event[] {
  const events = [
    message('u1', 'i1', 'user', 'Why is the sky blue?'),
    message('a1', 'i1', 'talker', 'Scattering.'),
    // The agent's checkpoint: no content, not counted as summarised.
    {
      ...createEvent({ invocationId: 'i1', author: 'talker', actions: { endOfAgent: true } }),
      id: 'k1',
    },
    message('u2', 'i2', 'user', 'And at sunset?'),
    message('a2', 'i2', 'talker', 'Longer path.'),
    message('u3', 'i3', 'user', 'Thanks!'),
  ];
  const compaction: Event = {
    ...createEvent({
      invocationId: 'i3',
      author: 'system',
      actions: {
        compaction: {
          startTimestamp: events[0]!.timestamp,
          endTimestamp: events[4]!.timestamp,
          compactedContent: { role: 'model', parts: summary ? [{ text: summary }] : [] },
          startEventId: 'u1',
          endEventId: 'a2',
        },
      },
    }),
    id: 'c3',
  };
  return [...events, compaction, message('a3', 'i3', 'talker', 'You are welcome.')];
}

describe('a compaction in History and the chat', () => {
  it('is noted under the turn it happened in, with the events it covers and its summary', () => {
    const notes = compactionNotes(conversation());
    expect(notes).toEqual([
      { eventId: 'c3', invocationId: 'i3', events: 4, summary: 'They talked about the sky.' },
    ]);
    expect(compactionTitle(notes[0]!)).toBe('Context compacted: 4 events summarised');
    expect([...compactionsByTurn(notes).keys()]).toEqual(['i3']);
  });

  it('says "earlier events" when the tail does not reach its start, "dropped" without a summary', () => {
    const tail = conversation('').slice(2);
    const [note] = compactionNotes(tail);
    expect(note!.events).toBeUndefined();
    expect(compactionTitle(note!)).toBe('Context compacted: earlier events dropped');
  });

  it('keeps every message in the chat, with a quiet divider where it happened', () => {
    const items = chatItems(conversation());
    expect(items.map((item) => item.kind)).toEqual([
      'message',
      'message',
      'message',
      'message',
      'message',
      'compaction',
      'message',
    ]);
    expect(items[5]).toMatchObject({
      text: 'Earlier messages summarised for the model — rewind to before this turn to bring them back',
      title: 'Context compacted: 4 events summarised',
    });
  });
});
