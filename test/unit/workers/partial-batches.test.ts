// A run's streamed text reaches the page in batches (workers/runs/partial-batches.ts): every
// chunk's text arrives, in order, in fewer messages; the first chunk goes at once; anything that is
// not a text chunk of the same answer first sends what is held; the end of the run sends the rest.

import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/core/event.ts';
import { batchPartials, withPartialBatches } from '../../../workers/runs/partial-batches.ts';

/** A clock the test moves by hand; timers run when it passes them. */
function manualClock() {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  return {
    now: () => now,
    setTimeout: (run: () => void, ms: number) => {
      timers.push({ at: now + ms, run, id: ++ids });
      return ids;
    },
    clearTimeout: (id: unknown) => {
      timers = timers.filter((timer) => timer.id !== id);
    },
    advance(ms: number) {
      now += ms;
      for (const timer of timers.filter((t) => t.at <= now)) {
        timers = timers.filter((t) => t !== timer);
        timer.run();
      }
    },
  };
}

const chunk = (id: string, text: string): Event => ({
  id,
  invocationId: 'i1',
  author: 'agent',
  timestamp: 0,
  partial: true,
  content: { role: 'model', parts: [{ text }] },
  actions: { stateDelta: {}, artifactDelta: {} },
});

const stored = (id: string, text: string): Event => ({ ...chunk(id, text), partial: undefined });

const texts = (events: Event[]) =>
  events.map((e) => `${e.partial ? 'partial' : 'stored'}:${e.content?.parts[0]?.text}`);

describe('streamed text in batches', () => {
  it('sends the first chunk at once and joins the next ones until the interval has passed', () => {
    const clock = manualClock();
    const sent: Event[] = [];
    const { listener } = batchPartials((e) => sent.push(e), { intervalMs: 50, clock });
    listener(chunk('e1', 'a'));
    expect(texts(sent)).toEqual(['partial:a']);
    clock.advance(10);
    listener(chunk('e1', 'b'));
    clock.advance(10);
    listener(chunk('e1', 'c'));
    expect(sent).toHaveLength(1);
    clock.advance(30);
    expect(texts(sent)).toEqual(['partial:a', 'partial:bc']);
    // A pause longer than the interval: the next chunk goes at once again.
    clock.advance(100);
    listener(chunk('e1', 'd'));
    expect(texts(sent)).toEqual(['partial:a', 'partial:bc', 'partial:d']);
  });

  it('sends what it holds before a stored event, another answer or a chunk that is not text', () => {
    const clock = manualClock();
    const sent: Event[] = [];
    const { listener } = batchPartials((e) => sent.push(e), { intervalMs: 50, clock });
    const thought: Event = {
      ...chunk('e1', 'hmm'),
      content: { role: 'model', parts: [{ text: 'hmm', thought: true }] },
    };
    for (const event of [
      chunk('e1', 'a'),
      chunk('e1', 'b'),
      chunk('e1', 'c'),
      thought,
      chunk('e1', 'd'),
      chunk('e2', 'x'),
      chunk('e2', 'y'),
      stored('e2', 'xy'),
    ])
      listener(event);
    expect(texts(sent)).toEqual([
      'partial:a',
      'partial:bc',
      'partial:hmm',
      'partial:d',
      'partial:xy',
      'stored:xy',
    ]);
    clock.advance(1000);
    expect(sent).toHaveLength(6);
  });

  it('sends the rest when the run ends, and when it fails', async () => {
    const sent: Event[] = [];
    await withPartialBatches(
      (e) => sent.push(e),
      async (listener) => {
        listener(chunk('e1', 'a'));
        listener(chunk('e1', 'b'));
        listener(chunk('e1', 'c'));
      },
    );
    expect(texts(sent)).toEqual(['partial:a', 'partial:bc']);

    sent.length = 0;
    const failed = withPartialBatches(
      (e) => sent.push(e),
      async (listener) => {
        listener(chunk('e1', 'a'));
        listener(chunk('e1', 'b'));
        throw new DOMException('Stopped', 'AbortError');
      },
    );
    await expect(failed).rejects.toThrow('Stopped');
    expect(texts(sent)).toEqual(['partial:a', 'partial:b']);
  });
});
