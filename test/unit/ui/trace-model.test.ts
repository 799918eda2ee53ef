// The Trace view's model: the waterfall's rows (tree order, depth, bars placed on the turn's time,
// parallel siblings overlapping, open waits drawn to now, one row per span however often it was
// written), durations as people read them, attributes labelled, and the events each kind of span
// produced.

import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/core/event.ts';
import { createEvent } from '../../../src/core/event.ts';
import type { SpanRecord } from '../../../src/tracing/span.ts';
import { eventLine, spanEventSections } from '../../../src/ui/trace/span-events.ts';
import {
  attributeRows,
  formatDuration,
  layoutTrace,
  rowLabel,
} from '../../../src/ui/trace/trace-model.ts';

const T0 = 1_700_000_000_000;

function span(
  spanId: string,
  parentSpanId: string | undefined,
  kind: SpanRecord['kind'],
  start: number,
  end: number | undefined,
  extra: Partial<SpanRecord> = {},
): SpanRecord {
  return {
    appName: 'a',
    userId: 'u',
    sessionId: 's',
    invocationId: 'inv',
    traceId: '0'.repeat(31) + '1',
    spanId,
    ...(parentSpanId ? { parentSpanId } : {}),
    kind,
    name: `${kind} ${spanId}`,
    startTime: T0 + start,
    ...(end === undefined ? {} : { endTime: T0 + end }),
    status: 'ok',
    attributes: {},
    ...extra,
  };
}

/** A flow with a parallel fan-out: root → flow agent → (pros ∥ cons) → draft. */
const FANOUT = [
  span('draft', 'flow', 'agent', 600, 1000),
  span('root', undefined, 'invocation', 0, 1000),
  span('cons', 'flow', 'agent', 100, 500, { branch: 'flow.cons' }),
  span('flow', 'root', 'agent', 0, 1000),
  span('pros', 'flow', 'agent', 100, 400, { branch: 'flow.pros' }),
  span('pros-model', 'pros', 'model', 150, 350),
];

describe('layoutTrace', () => {
  it('orders rows as a tree, children by start time, indented by depth', () => {
    const { rows } = layoutTrace(FANOUT, T0 + 5000);
    expect(rows.map((row) => [row.span.spanId, row.depth])).toEqual([
      ['root', 0],
      ['flow', 1],
      ['cons', 2],
      ['pros', 2],
      ['pros-model', 3],
      ['draft', 2],
    ]);
  });

  it('places each bar by its start and sizes it by its duration, on the whole time span', () => {
    const { rows, startTime, totalMs } = layoutTrace(FANOUT, T0 + 5000);
    expect(startTime).toBe(T0);
    expect(totalMs).toBe(1000);
    const bar = (id: string) => {
      const row = rows.find((r) => r.span.spanId === id)!;
      return [row.offsetMs, row.durationMs, row.left, row.width];
    };
    expect(bar('root')).toEqual([0, 1000, 0, 100]);
    expect(bar('pros-model')).toEqual([150, 200, 15, 20]);
    expect(bar('draft')).toEqual([600, 400, 60, 40]);
  });

  it('draws parallel branches side by side: sibling rows whose bars overlap', () => {
    const { rows } = layoutTrace(FANOUT, T0 + 5000);
    const pros = rows.find((row) => row.span.spanId === 'pros')!;
    const cons = rows.find((row) => row.span.spanId === 'cons')!;
    expect(pros.depth).toBe(cons.depth);
    expect(pros.left).toBeLessThan(cons.left + cons.width);
    expect(cons.left).toBeLessThan(pros.left + pros.width);
  });

  it('draws an open span (a wait not answered) up to now, and stretches the time span to it', () => {
    const spans = [
      span('root', undefined, 'invocation', 0, 200),
      span('wait', 'root', 'wait', 150, undefined),
    ];
    const { rows, totalMs } = layoutTrace(spans, T0 + 2000);
    expect(totalMs).toBe(2000);
    const wait = rows[1]!;
    expect(wait).toMatchObject({ open: true, durationMs: 1850, left: 7.5, width: 92.5 });
    expect(rows[0]).toMatchObject({ open: false, width: 10 });
  });

  it('keeps one row for a wait written open then closed, the closed one', () => {
    const open = span('wait', 'root', 'wait', 100, undefined);
    const closed = span('wait', 'root', 'wait', 100, 900);
    for (const order of [
      [open, closed],
      [closed, open],
    ]) {
      const { rows } = layoutTrace([span('root', undefined, 'invocation', 0, 100), ...order], T0);
      expect(rows.map((row) => [row.span.spanId, row.open, row.durationMs])).toEqual([
        ['root', false, 100],
        ['wait', false, 800],
      ]);
    }
  });

  it('makes a root of a span whose parent is not there (a resumed run), and survives cycles', () => {
    const spans = [
      span('resumed', undefined, 'invocation', 500, 700),
      span('first', undefined, 'invocation', 0, 100),
      span('lost', 'gone', 'agent', 550, 600),
      span('x', 'y', 'agent', 10, 20),
      span('y', 'x', 'agent', 30, 40),
    ];
    const { rows } = layoutTrace(spans, T0);
    expect(rows.map((row) => `${row.span.spanId}:${row.depth}`)).toEqual([
      'first:0',
      'resumed:0',
      'lost:0',
      'x:0',
      'y:1',
    ]);
  });

  it('has no rows for no spans, and full-width bars when everything took no time', () => {
    expect(layoutTrace([], T0).rows).toEqual([]);
    const { rows } = layoutTrace([span('root', undefined, 'invocation', 0, 0)], T0);
    expect(rows[0]).toMatchObject({ left: 0, width: 100, durationMs: 0 });
  });
});

describe('rowLabel', () => {
  it.each([
    ['agent', 'invoke_agent drafter', 'drafter'],
    ['model', 'chat gpt-4o', 'gpt-4o'],
    ['tool', 'execute_tool calculator', 'calculator'],
    ['wait', 'wait for approval: publish', 'wait for approval: publish'],
    ['invocation', 'invocation (resumed)', 'invocation (resumed)'],
    ['agent', 'chat bot', 'chat bot'],
    ['tool', 'execute_tool ', 'execute_tool '],
  ] as const)('a %s span named "%s" reads "%s" on its row', (kind, name, label) => {
    expect(rowLabel(span('s', undefined, kind, 0, 1, { name }))).toBe(label);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [0.42, '0.4 ms'],
    [4, '4 ms'],
    [9.96, '10 ms'],
    [85.4, '85 ms'],
    [999, '999 ms'],
    [1200, '1.2 s'],
    [1000, '1 s'],
    [14_400, '14 s'],
    [60_000, '1 min'],
    [185_000, '3 min 5 s'],
    [7_800_000, '2 h 10 min'],
    [2 * 86_400_000 + 3_600_000, '2 d 1 h'],
    [-1, '–'],
    [Number.NaN, '–'],
  ])('%s ms reads %s', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('attributeRows', () => {
  it('labels the GenAI and Trellis attributes, known ones first, and formats their values', () => {
    const rows = attributeRows({
      'zeta.custom': true,
      'gen_ai.usage.output_tokens': 1234,
      'gen_ai.request.model': 'demo',
      'trellis.time_to_first_token_ms': 85,
      'gen_ai.response.finish_reasons': ['stop'],
      'trellis.tool.result_bytes': 2048,
    });
    expect(rows.map((row) => `${row.label}=${row.value}`)).toEqual([
      'Model=demo',
      'Tokens out=1,234',
      'Time to first token=85 ms',
      'Finish reason=stop',
      'Result size=2,048 characters',
      'zeta.custom=true',
    ]);
  });
});

describe('spanEventSections', () => {
  const at = (ms: number) => T0 + ms;
  const message = createEvent({
    id: 'e1',
    invocationId: 'inv',
    author: 'user',
    timestamp: at(0),
    content: { role: 'user', parts: [{ text: 'Is INV-1 paid?' }] },
  });
  const call = createEvent({
    id: 'e2',
    invocationId: 'inv',
    author: 'billing',
    timestamp: at(100),
    content: {
      role: 'model',
      parts: [{ functionCall: { id: 'c1', name: 'lookup', args: { id: 'INV-1' } } }],
    },
  });
  const response = createEvent({
    id: 'e3',
    invocationId: 'inv',
    author: 'billing',
    timestamp: at(150),
    content: {
      role: 'user',
      parts: [{ functionResponse: { id: 'c1', name: 'lookup', response: { status: 'paid' } } }],
    },
  });
  const otherBranch = createEvent({
    id: 'e4',
    invocationId: 'inv',
    author: 'cons',
    branch: 'flow.cons',
    timestamp: at(160),
    content: { role: 'model', parts: [{ text: 'a drawback' }] },
  });
  const answer = createEvent({
    id: 'e5',
    invocationId: 'inv',
    author: 'billing',
    branch: 'flow.pros',
    timestamp: at(200),
    content: { role: 'model', parts: [{ text: 'It is paid.' }] },
  });
  const events: Event[] = [message, call, response, otherBranch, answer];
  const titles = (sections: ReturnType<typeof spanEventSections>) =>
    sections.map((s) => `${s.title}: ${s.events.map((e) => e.id).join(' ')}`);

  it('gives a model call its answer, and what it was sent from this turn on its branch', () => {
    const model = span('m', 'a', 'model', 170, 200, {
      attributes: { 'trellis.event_id': 'e5', 'trellis.contents': 7 },
    });
    const sections = spanEventSections(model, events);
    expect(titles(sections)).toEqual(['Response: e5', 'Request: e1 e2 e3']);
    expect(sections[1]!.note).toBe('7 contents sent (3 from this turn, listed)');
  });

  it('gives a tool call the call and the response with its call id', () => {
    const tool = span('t', 'a', 'tool', 100, 150, { attributes: { 'gen_ai.tool.call.id': 'c1' } });
    expect(titles(spanEventSections(tool, events))).toEqual(['Call: e2', 'Response: e3']);
  });

  it('gives a wait the request and the answer', () => {
    const wait = span('w', 'root', 'wait', 100, 150, {
      attributes: { 'gen_ai.tool.call.id': 'c1', 'trellis.event_id': 'e2' },
    });
    expect(titles(spanEventSections(wait, events))).toEqual(['Asked: e2', 'Answer: e3']);
    const unanswered = { ...wait, attributes: { ...wait.attributes, 'gen_ai.tool.call.id': 'c9' } };
    expect(titles(spanEventSections(unanswered, events))).toEqual(['Asked: e2']);
  });

  it('gives an agent its own events while it ran', () => {
    const agent = span('a', 'root', 'agent', 99.6, 180.2, {
      attributes: { 'gen_ai.agent.name': 'billing' },
    });
    expect(titles(spanEventSections(agent, events))).toEqual(['Its events: e2 e3']);
  });

  it('writes an event as plain text: text, calls, responses, files, errors', () => {
    expect(eventLine(call).text).toBe('call lookup({"id":"INV-1"})');
    expect(eventLine(response).text).toBe('response lookup: {"status":"paid"}');
    const failed = createEvent({
      id: 'e9',
      invocationId: 'inv',
      author: 'a',
      errorCode: 'MODEL_ERROR',
      errorMessage: 'boom',
      content: {
        role: 'user',
        parts: [{ text: '<b>hi</b>' }, { inlineData: { mimeType: 'image/png', data: '' } }],
      },
    });
    expect(eventLine(failed).text).toBe('<b>hi</b>\nfile (image/png)\nerror MODEL_ERROR: boom');
  });
});
