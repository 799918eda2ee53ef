// Events a tool hands its agent while it runs (ADK 2.0's `invocationContext.eventQueue`): an agent
// called as a tool (src/tools/agent-tool.ts) runs inside the call, and its events are the caller's
// to yield, so the runner stores them (and the page sees them, streamed text too) as any other.
//
// What must stay true:
// - `emit` resolves only once the agent's reader took the event (the runner: stored it), so an
//   agent inside a tool reads its own events in the session before it goes on (as mergeRuns);
// - events of tools running side by side are yielded one at a time, in the order they came;
// - once the reader stops (Stop, a failure downstream), every emit waiting or to come fails with
//   an AbortError, so the tool stops too and nothing more is stored.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';

/** A tool's result that answers nothing yet: its call stays open (the invocation paused). */
export const NO_ANSWER_YET: unique symbol = Symbol('no answer yet');

/** The channel of each context whose calls are running now, by the context the tools get. */
const channels = new WeakMap<InvocationContext, ToolEvents>();

interface Waiting {
  event: Event;
  taken: () => void;
  failed: (error: Error) => void;
}

class ToolEvents {
  readonly waiting: Waiting[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  emit(event: Event): Promise<void> {
    if (this.closed) return Promise.reject(stopped());
    return new Promise((taken, failed) => {
      this.waiting.push({ event, taken, failed });
      const wake = this.wake;
      this.wake = undefined;
      wake?.();
    });
  }

  /** Resolves when the next event comes. */
  arrival(): Promise<void> {
    return new Promise((resolve) => (this.wake = resolve));
  }

  close(): void {
    this.closed = true;
    for (const waiting of this.waiting.splice(0)) waiting.failed(stopped());
    this.wake?.();
  }
}

function stopped(): Error {
  const error = new Error('The run stopped before this event was stored');
  error.name = 'AbortError';
  return error;
}

/**
 * Runs `calls` (the agent's tool calls, in `ctx`) and yields the events its tools emit meanwhile;
 * returns what `calls` returned (or throws what it threw), once every emitted event was taken.
 */
export async function* whileToolsRun<T>(
  ctx: InvocationContext,
  calls: () => Promise<T>,
): AsyncGenerator<Event, T> {
  const channel = new ToolEvents();
  channels.set(ctx, channel);
  let settled = false;
  let current: Waiting | undefined;
  const task = calls();
  const ended = task.then(
    () => void (settled = true),
    () => void (settled = true),
  );
  try {
    for (;;) {
      current = channel.waiting.shift();
      if (current) {
        yield current.event;
        current.taken();
        current = undefined;
      } else if (settled) {
        return await task;
      } else {
        await Promise.race([ended, channel.arrival()]);
      }
    }
  } finally {
    if (channels.get(ctx) === channel) channels.delete(ctx);
    current?.failed(stopped());
    channel.close();
  }
}

/**
 * How a tool running in `ctx` hands its agent an event (see the top of this file); `undefined`
 * when its calls were not run through `whileToolsRun` (a flow's tool node, say).
 */
export function toolEventsOf(
  ctx: InvocationContext,
): ((event: Event) => Promise<void>) | undefined {
  const channel = channels.get(ctx);
  return channel && ((event) => channel.emit(event));
}
