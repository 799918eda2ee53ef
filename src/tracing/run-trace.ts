// The trace of one run of an invocation, for the runner: its root span, the waits a run answers
// when it resumes, and those it leaves open when it pauses.

import type { Event } from '../core/event.ts';
import type { InvocationContext } from '../runner/invocation-context.ts';
import type { RunOutcome } from '../runner/run-tracker.ts';
import type { OpenSpan } from './tracer.ts';
import { answeredIdsOf, rootSpanIdOf, waitSpans } from './wait-spans.ts';

export interface RunTrace {
  root: OpenSpan;
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
  const root = tracer.start('invocation', resume ? 'invocation (resumed)' : 'invocation', {
    ...(resume ? {} : { spanId: rootSpanIdOf(ctx.invocationId) }),
    attributes: { 'gen_ai.conversation.id': ctx.session.id, 'gen_ai.agent.name': agentName },
  });
  if (resume && message) {
    const events = ctx.activeView.peek().filter((e) => e.invocationId === ctx.invocationId);
    for (const wait of waitSpans(
      tracer,
      ctx.invocationId,
      events,
      answeredIdsOf(message),
      message.timestamp,
    ))
      tracer.write(wait);
  }
  return {
    root,
    async finish(events, outcome, details) {
      const pending = details?.pendingCallIds ?? [];
      if (pending.length > 0)
        for (const wait of waitSpans(tracer, ctx.invocationId, events(), pending))
          tracer.write(wait);
      tracer.end(root, {
        attributes: { 'trellis.outcome': outcome },
        error: details?.error?.message,
      });
      await tracer.flush();
    },
  };
}
