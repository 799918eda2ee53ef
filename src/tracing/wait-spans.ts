// The spans of the waits for a human: from the event that asked (an approval, a question, a
// long-running tool) to the user's answer. Written open when the run pauses, and again, closed,
// when the answer comes: the span id comes from the call id, so both writes are one span, even
// across a reload (the answer may come to another runner, days later).

import { functionCallsOf, functionResponsesOf } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { REQUEST_CONFIRMATION_FUNCTION } from '../agents/confirmation.ts';
import { spanIdOf, traceIdOf, type SpanRecord } from './span.ts';
import type { InvocationTracer } from './tracer.ts';

/**
 * The root span of an invocation's first run (a resumed run's root is a span of its own): the
 * trace id's second half, known to every later run of the invocation.
 */
export function rootSpanIdOf(invocationId: string): string {
  return traceIdOf(invocationId).slice(16);
}

/**
 * The wait spans of calls `callIds` of an invocation's `events`: open, or ended at `endTime`.
 */
export function waitSpans(
  tracer: InvocationTracer,
  invocationId: string,
  events: readonly Event[],
  callIds: readonly string[],
  endTime?: number,
): SpanRecord[] {
  const wanted = new Set(callIds);
  const spans: SpanRecord[] = [];
  for (const event of events) {
    for (const call of functionCallsOf(event.content)) {
      if (!call.id || !wanted.has(call.id)) continue;
      wanted.delete(call.id);
      const original = (call.args as { originalFunctionCall?: { name?: string } } | undefined)
        ?.originalFunctionCall;
      const approval = call.name === REQUEST_CONFIRMATION_FUNCTION;
      const name = approval
        ? `wait for approval: ${original?.name ?? 'a tool'}`
        : `wait for the user: ${call.name}`;
      const record = tracer.start('wait', name, {
        spanId: spanIdOf(call.id),
        parentSpanId: rootSpanIdOf(invocationId),
        branch: event.branch,
        startTime: event.timestamp,
        attributes: { 'gen_ai.tool.call.id': call.id, 'trellis.event_id': event.id },
      });
      if (endTime !== undefined) record.endTime = endTime;
      spans.push(record);
    }
  }
  return spans;
}

/** The ids of the calls that `event` (a user's message) answers. */
export function answeredIdsOf(event: Event): string[] {
  return functionResponsesOf(event.content).flatMap((response) =>
    response.id ? [response.id] : [],
  );
}
