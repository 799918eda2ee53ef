// The Trace view's view model over a hand-written worker: the trace read and laid out, the chosen
// span kept across a refresh while it is still there, open waits growing with the clock (and the
// clock stopped with the view), and the worker's refusals shown as they were said.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SpanRecord } from '../../../src/tracing/span.ts';
import { TraceViewModel } from '../../../src/ui/trace/trace-view-model.ts';
import type { RuntimeClient } from '../../../src/ui/workbench/workbench.ts';

const T0 = 1_700_000_000_000;

function span(spanId: string, start: number, end: number | undefined): SpanRecord {
  return {
    appName: 'a',
    userId: 'u',
    sessionId: 's',
    invocationId: 'inv',
    traceId: '1'.repeat(32),
    spanId,
    ...(spanId === 'root' ? {} : { parentSpanId: 'root' }),
    kind: spanId === 'root' ? 'invocation' : 'wait',
    name: spanId,
    startTime: T0 + start,
    ...(end === undefined ? {} : { endTime: T0 + end }),
    status: 'ok',
    attributes: {},
  };
}

/** A worker that answers with `spans`, or refuses as a remote session's would. */
function fakeClient(state: { spans: SpanRecord[]; refuse?: string }) {
  const fail = (message: string) =>
    Promise.reject(Object.assign(new Error(message), { name: 'InvalidRequestError' }));
  return {
    runtime: {
      trace: (sessionId: string, invocationId: string) =>
        state.refuse
          ? fail(state.refuse)
          : Promise.resolve({ invocationId, spans: state.spans, events: [], sessionId }),
      exportTraces: () => fail('This session has no trace yet: its runs were not traced'),
    },
  } as unknown as Pick<RuntimeClient, 'runtime'>;
}

describe('TraceViewModel', () => {
  let now = T0;
  beforeEach(() => {
    vi.useFakeTimers();
    now = T0 + 1000;
  });
  afterEach(() => vi.useRealTimers());

  it('reads the trace and lays it out; a chosen span stays chosen while it is there', async () => {
    const state = { spans: [span('root', 0, 1000), span('wait', 100, 400)] };
    const model = new TraceViewModel(fakeClient(state), 's', 'inv', () => now);
    await model.load();
    expect(model.snapshot.layout?.rows.map((row) => row.span.spanId)).toEqual(['root', 'wait']);
    model.select('wait');
    await model.load();
    expect(model.snapshot.selectedSpanId).toBe('wait');
    state.spans = [span('root', 0, 1000)];
    await model.load();
    expect(model.snapshot.selectedSpanId).toBeUndefined();
  });

  it('grows an open wait with the clock, and stops the clock when the view closes', async () => {
    const model = new TraceViewModel(
      fakeClient({ spans: [span('root', 0, 200), span('wait', 100, undefined)] }),
      's',
      'inv',
      () => now,
    );
    await model.load();
    const wait = () => model.snapshot.layout!.rows[1]!;
    expect(wait()).toMatchObject({ open: true, durationMs: 900 });
    now += 5000;
    vi.advanceTimersByTime(1000);
    expect(wait().durationMs).toBe(5900);
    model.dispose();
    now += 5000;
    vi.advanceTimersByTime(5000);
    expect(wait().durationMs).toBe(5900);
  });

  it("shows the worker's refusal: a remote session's trace, an export with nothing in it", async () => {
    const refuse =
      'A session on an ADK server has its traces on that server (its Trace tab), not here';
    const model = new TraceViewModel(fakeClient({ spans: [], refuse }), 's', 'inv', () => now);
    await model.load();
    expect(model.snapshot).toMatchObject({ loading: false, error: refuse, layout: undefined });
    await model.exportOtlp();
    expect(model.snapshot.exportError).toBe(
      'This session has no trace yet: its runs were not traced',
    );
  });
});
