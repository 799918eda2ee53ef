// The nodes' events of a workflow run on their way to the Runner, in the order they were made.

import type { Event } from '../core/event.ts';
import type { EventChannel } from './node-context.ts';

/**
 * The nodes' events on their way to the Runner, in the order they were made. `settled` resolves
 * once every event pushed so far was taken and stored (the Runner stores an event before it asks
 * for the next).
 */
export class EventQueue implements EventChannel, AsyncIterable<Event> {
  private readonly buffer: Event[] = [];
  private pushed = 0;
  private taken = 0;
  private closed = false;
  private failure: { error: unknown } | undefined;
  private stopped: { reason: unknown } | undefined;
  private wake: (() => void) | undefined;
  private waiters: { resolve: () => void; reject: (reason: unknown) => void }[] = [];

  push(event: Event): void {
    if (this.closed) return;
    this.buffer.push(event);
    this.pushed++;
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
    this.release();
  }

  /** The reader is gone: nothing more is taken; a node waiting for its events to be stored stops. */
  stop(reason: unknown): void {
    this.stopped = { reason };
    this.close();
  }

  fail(error: unknown): void {
    this.failure = { error };
    this.close();
  }

  /** The consumer stored the event it took. */
  consumed(): void {
    this.taken++;
    this.release();
  }

  settled(): Promise<void> {
    if (this.stopped) return Promise.reject(this.stopped.reason);
    if (this.closed || this.taken >= this.pushed) return Promise.resolve();
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private release(): void {
    if (!this.closed && this.taken < this.pushed) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const waiter of waiters) {
      if (this.stopped) waiter.reject(this.stopped.reason);
      else waiter.resolve();
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Event, void> {
    for (;;) {
      const next = this.buffer.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.closed) {
        if (this.failure) throw this.failure.error;
        return;
      }
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = undefined;
    }
  }
}
