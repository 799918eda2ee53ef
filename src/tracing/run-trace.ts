// The trace of one run of an invocation, for the runner: its root span, the waits a run answers
// when it resumes, and those it leaves open when it pauses.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { RunOutcome } from '../runner/run-tracker.ts';
import type { InvocationSpan } from './open-span.ts';
import { answeredIdsOf, waitSpans } from './wait-spans.ts';

export interface RunTrace {
  root: InvocationSpan;
  /** Ends the run's span (and writes the waits it leaves), then writes what is queued. */
  finish(
    /** The invocation's events (read only when the run paused: a wait is left open). */
    events: () => readonly Event[],
    outcome: RunOutcome,
    details?: { pendingCallIds?: string[]; error?: { message: string } },
  ): Promise<void>;
}

/**
 * Starts tracing a run of `ctx`'s invocation (nothing when it is not traced). `message`, the
 * user's event stored to start or resume it, closes the waits it answers.
 */
export function traceRun(
  ctx: InvocationContext,
  agentName: string,
  resume: boolean,
  message: Event | undefined,
): RunTrace | undefined {
  const tracer = ctx.tracer;
  if (!tracer) return undefined;
  // The first run's span has an id its waits know; a resumed run's is a span of its own.
  const root = tracer.invocation(agentName, resume);
  if (resume && message) {
    const events = ctx.activeView.peek().filter((e) => e.invocationId === ctx.invocationId);
    for (const wait of waitSpans(tracer, events, answeredIdsOf(message), message.timestamp))
      tracer.write(wait);
  }
  return {
    root,
    async finish(events, outcome, details) {
      const pending = details?.pendingCallIds ?? [];
      if (pending.length > 0)
        for (const wait of waitSpans(tracer, events(), pending)) tracer.write(wait);
      root.outcome = outcome;
      tracer.end(root, details?.error?.message);
      // In memory, the spans are kept already: nothing to wait for.
      const written = tracer.flush();
      if (written) await written;
    },
  };
}
