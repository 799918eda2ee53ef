// The spans of the waits for a human: from the event that asked (an approval, a question, a
// long-running tool) to the user's answer. Written open when the run pauses, and again, closed,
// when the answer comes: the span id comes from the call id, so both writes are one span, even
// across a reload (the answer may come to another runner, days later).

import { functionCallsOf, functionResponsesOf } from '../core/content.ts';
import type { Event } from '../core/event.ts';
import { REQUEST_CONFIRMATION_FUNCTION } from '../agents/confirmation.ts';
import type { WaitSpan } from './open-span.ts';
import type { InvocationTracer } from './tracer.ts';

/** The wait spans of calls `callIds` of the run's `events`: open, or ended at `endTime`. */
export function waitSpans(
  tracer: InvocationTracer,
  events: readonly Event[],
  callIds: readonly string[],
  endTime?: number,
): WaitSpan[] {
  const wanted = new Set(callIds);
  const spans: WaitSpan[] = [];
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
      const span = tracer.wait(name, call.id, event);
      if (endTime !== undefined) span.endTime = endTime;
      spans.push(span);
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
