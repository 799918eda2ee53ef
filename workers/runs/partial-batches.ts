// A run's streamed text goes to the page in batches, not a message a token: a local model makes
// a token every few milliseconds, and each message costs the page a task (and the worker the
// reply Comlink sends back), CPU that a model on the same cores then lacks. Partial events of one
// answer that come within PARTIAL_BATCH_MS of the last one sent are joined into one.
//
// What must stay true:
// - no text is lost or reordered: a batch holds consecutive text-only partial events of one
//   answer (one event id), joined in order; anything else first sends the batch, then itself;
// - the first chunk after a pause goes at once (the first token is not held back);
// - nothing is left behind: the run's caller flushes when the run ends, however it ends.

import type { Event } from '../../src/core/event.ts';
import type { EventListener } from './runs.ts';

/** At most this often, streamed text goes to the page: 10 draws a second. */
export const PARTIAL_BATCH_MS = 100;

export interface PartialBatches {
  /** Takes each event of the run, in order. */
  readonly listener: EventListener;
  /** Sends what is held now. */
  flush(): void;
}

interface Clock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
}

const realClock: Clock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
};

export function batchPartials(
  onEvent: EventListener,
  { intervalMs = PARTIAL_BATCH_MS, clock = realClock }: { intervalMs?: number; clock?: Clock } = {},
): PartialBatches {
  let held: Event | undefined;
  let timer: unknown;
  let sentAt = -Infinity;
  const flush = () => {
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
    const event = held;
    held = undefined;
    if (!event) return;
    sentAt = clock.now();
    onEvent(event);
  };
  const listener = (event: Event) => {
    const text = textOnly(event);
    if (text === undefined) {
      flush();
      onEvent(event);
      return;
    }
    if (held && held.id === event.id) held = withText(held, textOnly(held)! + text);
    else {
      flush();
      held = event;
    }
    if (timer !== undefined) return;
    const wait = sentAt + intervalMs - clock.now();
    if (wait <= 0) flush();
    else timer = clock.setTimeout(flush, wait);
  };
  return { listener, flush };
}

/** Runs `run` with its events batched, sending what is held when it ends. */
export async function withPartialBatches<T>(
  onEvent: EventListener,
  run: (listener: EventListener) => Promise<T>,
): Promise<T> {
  const batches = batchPartials(onEvent);
  try {
    return await run(batches.listener);
  } finally {
    batches.flush();
  }
}

/** The text of a partial event that is only text (one part, nothing but `text`), else nothing. */
function textOnly(event: Event): string | undefined {
  if (!event.partial) return undefined;
  const parts = event.content?.parts;
  if (parts?.length !== 1) return undefined;
  const part = parts[0]!;
  if (typeof part.text !== 'string' || Object.keys(part).length !== 1) return undefined;
  return part.text;
}

function withText(event: Event, text: string): Event {
  return { ...event, content: { ...event.content!, parts: [{ text }] } };
}
