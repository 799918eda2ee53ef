// Traces recorded while runs happen, over both kinds of storage: an invocation's spans nested
// (invocation → agent → model call / tool call), with the model's tokens and the tool's
// arguments; a failing tool marked where it failed; the wait for an approval from the request to
// the answer, across a restart, in the same trace as the resumed run; spans deleted with their
// session; and the OTLP JSON export, parsed back: ids, parents and times round-trip.

import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  IndexedDbSessionService,
  IndexedDbTraceService,
  InMemoryTraceService,
  LlmAgent,
  Runner,
  ScriptedModel,
  SequentialAgent,
  functionCallResponse,
  toOtlpJson,
  traceIdOf,
  type BaseTraceService,
  type Content,
  type LlmRequest,
  type SpanRecord,
} from '../../../src/index.ts';
import { collect, freshDbName, userMessage } from '../../support/helpers.ts';

const appName = 'traces';
const userId = 'u';

/** A model that calls `tool` once, then says what it got; with token counts. */
function caller(tool: string) {
  return new ScriptedModel((request: LlmRequest) => {
    const response = request.contents.at(-1)!.parts[0]?.functionResponse;
    if (response)
      return {
        content: { role: 'model', parts: [{ text: `got ${JSON.stringify(response.response)}` }] },
        usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 3 },
      };
    return functionCallResponse([tool, { x: 2 }]);
  });
}

function tool(name: string, options: { fails?: boolean; confirm?: boolean } = {}) {
  return new FunctionTool<{ x: number }>({
    name,
    description: name,
    parameters: { type: 'object', properties: { x: { type: 'number' } } },
    ...(options.confirm ? { requireConfirmation: true } : {}),
    execute: ({ x }) => {
      if (options.fails) throw new Error('the printer is on fire');
      return { doubled: x * 2 };
    },
  });
}

const kinds = [
  { name: 'in memory', open: () => ({ traces: new InMemoryTraceService(), dbName: undefined }) },
  {
    name: 'IndexedDB',
    open: () => {
      const dbName = freshDbName();
      return { traces: new IndexedDbTraceService({ dbName }), dbName };
    },
  },
];

describe.each(kinds)('traces ($name)', (kind) => {
  let closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers) await close();
    closers = [];
  });

  function setUp(agent: LlmAgent | SequentialAgent) {
    const opened = kind.open();
    // The sessions in IndexedDB either way: the kinds differ in where the spans are.
    const sessionService = new IndexedDbSessionService({ dbName: opened.dbName ?? freshDbName() });
    const runner = new Runner({
      appName,
      agent,
      sessionService,
      traceService: opened.traces,
      resumabilityConfig: { isResumable: true },
    });
    closers.push(() => sessionService.close());
    if (opened.traces instanceof IndexedDbTraceService) {
      const traces = opened.traces;
      closers.push(() => traces.close());
    }
    return { runner, traces: opened.traces as BaseTraceService, dbName: opened.dbName };
  }

  async function turn(runner: Runner, sessionId: string, message: Content | string) {
    return collect(
      runner.runAsync({
        userId,
        sessionId,
        newMessage: typeof message === 'string' ? userMessage(message) : message,
      }),
    );
  }

  const tree = (spans: readonly SpanRecord[]) => {
    const byId = new Map(spans.map((span) => [span.spanId, span]));
    return spans.map((span) => {
      const parent = span.parentSpanId ? byId.get(span.parentSpanId)?.name : undefined;
      return `${parent ?? '-'} > ${span.name}`;
    });
  };

  it('records the invocation, its agents, model calls and tool calls, nested and timed', async () => {
    const worker = new LlmAgent({
      name: 'worker',
      model: caller('double'),
      tools: [tool('double')],
    });
    const { runner, traces } = setUp(
      new SequentialAgent({ name: 'pipeline', subAgents: [worker] }),
    );
    const session = await runner.sessionService.createSession({ appName, userId });
    const events = await turn(runner, session.id, 'double 2');
    const spans = await traces.listSpans({ appName, userId, sessionId: session.id });
    expect(tree(spans)).toEqual([
      '- > invocation',
      'invocation > invoke_agent pipeline',
      'invoke_agent pipeline > invoke_agent worker',
      'invoke_agent worker > chat scripted',
      'invoke_agent worker > execute_tool double',
      'invoke_agent worker > chat scripted',
    ]);
    const invocationId = events[0]!.invocationId;
    for (const span of spans) {
      expect(span.traceId).toBe(traceIdOf(invocationId));
      expect(span.endTime).toBeGreaterThanOrEqual(span.startTime);
      expect(span.status).toBe('ok');
    }
    const [firstCall, toolCall, secondCall] = spans.slice(3);
    expect(firstCall!.attributes).toMatchObject({
      'gen_ai.request.model': 'scripted',
      'trellis.contents': 1,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(secondCall!.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.finish_reasons': ['stop'],
      'trellis.contents': 3,
    });
    // The model call's span names the event it produced.
    expect(events.map((event) => event.id)).toContain(secondCall!.attributes['trellis.event_id']);
    expect(toolCall!.attributes).toMatchObject({
      'gen_ai.tool.name': 'double',
      'trellis.tool.arguments': '{"x":2}',
      'trellis.tool.result_bytes': '{"doubled":4}'.length,
    });
    // One invocation's trace alone, read by its id.
    await turn(runner, session.id, 'again');
    expect(
      await traces.listSpans({ appName, userId, sessionId: session.id, invocationId }),
    ).toHaveLength(6);
  });

  it('marks a failed tool call where it failed', async () => {
    const agent = new LlmAgent({
      name: 'agent',
      model: caller('broken'),
      tools: [tool('broken', { fails: true })],
    });
    const { runner, traces } = setUp(agent);
    const session = await runner.sessionService.createSession({ appName, userId });
    await turn(runner, session.id, 'go').catch(() => undefined);
    const spans = await traces.listSpans({ appName, userId, sessionId: session.id });
    const failed = spans.filter((span) => span.status === 'error');
    expect(failed.map((span) => span.name)).toEqual(
      expect.arrayContaining(['execute_tool broken']),
    );
    expect(failed.find((span) => span.kind === 'tool')!.error).toMatch(/the printer is on fire/);
  });

  it('records the wait for an approval from request to answer, in the trace the resumed run continues', async () => {
    const agent = new LlmAgent({
      name: 'agent',
      model: caller('publish'),
      tools: [tool('publish', { confirm: true })],
    });
    const { runner, traces, dbName } = setUp(agent);
    const session = await runner.sessionService.createSession({ appName, userId });
    const paused = await turn(runner, session.id, 'publish');
    const request = paused
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    const key = { appName, userId, sessionId: session.id };
    const open = (await traces.listSpans(key)).find((span) => span.kind === 'wait')!;
    expect(open).toMatchObject({ name: 'wait for approval: publish' });
    expect(open.endTime).toBeUndefined();

    // Answered by another runner (a reload), on a fresh trace service of the same storage.
    const again = dbName ? new IndexedDbTraceService({ dbName }) : traces;
    if (again instanceof IndexedDbTraceService) closers.push(() => again.close());
    const laterRunner = new Runner({
      appName,
      agent,
      sessionService: runner.sessionService,
      traceService: again,
      resumabilityConfig: { isResumable: true },
    });
    await turn(laterRunner, session.id, {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: request.id,
            name: 'adk_request_confirmation',
            response: { confirmed: true },
          },
        },
      ],
    });
    const spans = await again.listSpans(key);
    const wait = spans.find((span) => span.kind === 'wait')!;
    expect(spans.filter((span) => span.kind === 'wait')).toHaveLength(1);
    expect(wait.endTime).toBeGreaterThanOrEqual(wait.startTime);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);
    expect(spans.filter((span) => span.kind === 'invocation').map((span) => span.name)).toEqual([
      'invocation',
      'invocation (resumed)',
    ]);
    expect(
      spans.some(
        (span) => span.name === 'execute_tool publish' && !span.attributes['trellis.tool.outcome'],
      ),
    ).toBe(true);
  });

  it('exports OTLP JSON that parses back to the same ids, parents and times', async () => {
    const agent = new LlmAgent({ name: 'agent', model: caller('double'), tools: [tool('double')] });
    const { runner, traces } = setUp(agent);
    const session = await runner.sessionService.createSession({ appName, userId });
    await turn(runner, session.id, 'double');
    const spans = await traces.listSpans({ appName, userId, sessionId: session.id });
    const otlp = JSON.parse(await toOtlpJson(spans)) as OtlpRequest;
    const exported = otlp.resourceSpans.flatMap((resource) =>
      resource.scopeSpans.flatMap((scope) => scope.spans),
    );
    expect(otlp.resourceSpans[0]!.resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'trellis' },
    });
    expect(exported).toHaveLength(spans.length);
    for (const span of spans) {
      const out = exported.find((candidate) => candidate.spanId === span.spanId)!;
      expect(out.traceId).toBe(span.traceId);
      expect(out.parentSpanId ?? undefined).toBe(span.parentSpanId);
      expect(out.name).toBe(span.name);
      // Times in Unix nanoseconds, to the microsecond of what was recorded.
      const micros = (nanos: string) => Number(BigInt(nanos) / 1000n);
      expect(Math.abs(micros(out.startTimeUnixNano) - span.startTime * 1000)).toBeLessThanOrEqual(
        1,
      );
      expect(Math.abs(micros(out.endTimeUnixNano) - span.endTime! * 1000)).toBeLessThanOrEqual(1);
    }
    const model = exported.find((span) => span.name.startsWith('chat'))!;
    expect(model.kind).toBe(3); // SPAN_KIND_CLIENT
    expect(model.attributes).toContainEqual({
      key: 'gen_ai.request.model',
      value: { stringValue: 'scripted' },
    });
  });

  it('reads the same spans every time, each read a copy of its own', async () => {
    const agent = new LlmAgent({ name: 'agent', model: caller('double'), tools: [tool('double')] });
    const { runner, traces } = setUp(agent);
    const session = await runner.sessionService.createSession({ appName, userId });
    await turn(runner, session.id, 'double');
    await turn(runner, session.id, 'again');
    const key = { appName, userId, sessionId: session.id };
    const first = await traces.listSpans(key);
    const shape = (spans: SpanRecord[]) =>
      spans.map((span) => [span.spanId, span.parentSpanId, span.name, span.attributes]);
    const asRead = structuredClone(shape(first));
    expect(new Set(first.map((span) => span.spanId)).size).toBe(first.length);
    first[0]!.attributes['gen_ai.agent.name'] = 'changed by a reader';
    first[1]!.name = 'changed too';
    expect(shape(await traces.listSpans(key))).toEqual(asRead);
  });

  it('forgets a session’s spans with the session', async () => {
    const agent = new LlmAgent({ name: 'agent', model: caller('double'), tools: [tool('double')] });
    const { runner, traces } = setUp(agent);
    const session = await runner.sessionService.createSession({ appName, userId });
    await turn(runner, session.id, 'double');
    const key = { appName, userId, sessionId: session.id };
    expect((await traces.listSpans(key)).length).toBeGreaterThan(0);
    await runner.sessionService.deleteSession(key);
    if (traces instanceof InMemoryTraceService) await traces.deleteSpans(key);
    expect(await traces.listSpans(key)).toEqual([]);
  });
});

/** What the test reads of an OTLP JSON export request (the protocol's field names). */
interface OtlpRequest {
  resourceSpans: {
    resource: { attributes: { key: string; value: Record<string, unknown> }[] };
    scopeSpans: {
      spans: {
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        name: string;
        kind: number;
        startTimeUnixNano: string;
        endTimeUnixNano: string;
        attributes: { key: string; value: Record<string, unknown> }[];
      }[];
    }[];
  }[];
}
