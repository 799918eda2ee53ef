// A workflow's trace: one span per node run, under the workflow's own, nested as the workflows
// are, a retried node with one span per attempt (the failed ones marked), and the node runs'
// events found from their spans.

import { describe, expect, it } from 'vitest';
import {
  InMemoryTraceService,
  Runner,
  InMemorySessionService,
  Workflow,
  node,
  type NodeContext,
  type SpanRecord,
} from '../../../src/index.ts';
import { collect } from '../../support/helpers.ts';

describe('a workflow traced', () => {
  it('has a span per node run, nested, and a span per attempt of a retried node', async () => {
    let tries = 0;
    function flaky(_ctx: NodeContext, input: unknown) {
      if (++tries < 3) throw new Error(`try ${tries} failed`);
      return `ok: ${input}`;
    }
    function lower(_ctx: NodeContext, input: unknown) {
      return String(input).toLowerCase();
    }
    const inner = new Workflow({ name: 'inner', edges: [['START', lower]] });
    const workflow = new Workflow({
      name: 'outer',
      edges: [
        [
          'START',
          node(flaky, { retryConfig: { maxAttempts: 3, initialDelay: 0, jitter: 0 } }),
          inner,
        ],
      ],
    });
    const traces = new InMemoryTraceService();
    const runner = new Runner({
      appName: 'app',
      agent: workflow,
      sessionService: new InMemorySessionService(),
      traceService: traces,
    });
    const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
    await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: session.id,
        newMessage: { role: 'user', parts: [{ text: 'HI' }] },
      }),
    );
    const spans = await traces.listSpans({ appName: 'app', userId: 'u', sessionId: session.id });
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const parentName = (span: SpanRecord) => byId.get(span.parentSpanId ?? '')?.name;
    const nodes = spans.filter((s) => s.kind === 'node');
    expect(
      nodes.map((s) => [s.name, s.attributes['trellis.node.attempt'], s.status, parentName(s)]),
    ).toEqual([
      ['execute_node outer', 1, 'ok', 'invoke_agent outer'],
      ['execute_node outer.flaky', 1, 'error', 'execute_node outer'],
      ['execute_node outer.flaky', 2, 'error', 'execute_node outer'],
      ['execute_node outer.flaky', 3, 'ok', 'execute_node outer'],
      ['execute_node outer.inner', 1, 'ok', 'execute_node outer'],
      ['execute_node outer.inner.lower', 1, 'ok', 'execute_node outer.inner'],
    ]);
    expect(nodes[1]!.error).toBe('try 1 failed');
  });
});
