// Flowise Sequential Agents flows imported as Trellis flows: a flow saved by Flowise (written here by
// hand from Flowise's node definitions: `customNode`s named seqStart…seqEnd, their forms in
// `data.inputs` with tables as JSON text, edges between handles) becomes a flow that validates and
// runs with a scripted model; what has no counterpart here is in the report, by node.

import { describe, expect, it } from 'vitest';
import {
  BUILTIN_TOOL_NAMES,
  builtinTools,
  compileFlow,
  importFlowiseFlow,
  InMemoryRunner,
  validateFlow,
} from '../../../src/index.ts';
import { nodeModel, nodePath, replies } from '../../support/flows.ts';
import { collect, userMessage } from '../../support/helpers.ts';
import { flowiseNode as node, flowiseTriage as flowise } from '../../support/flowise-fixture.ts';

describe('Flowise import', () => {
  const { flow, report } = importFlowiseFlow(flowise, 'Triage');

  it('converts every Sequential Agents node and edge it can, into a flow that validates', () => {
    expect(validateFlow(flow)).toEqual([]);
    expect(flow.state).toEqual([
      { key: 'category', operation: 'replace', default: null },
      { key: 'notes', operation: 'append', default: [] },
    ]);
    expect(flow.nodes.map((n) => [n.id, n.type])).toEqual([
      ['start', 'start'],
      ['classifier', 'llm'],
      ['route', 'condition'],
      ['billing', 'agent'],
      ['tech', 'agent'],
      ['resolved', 'conditionAgent'],
      ['loop', 'loop'],
      ['end', 'end'],
      ['end_2', 'end'],
    ]);
    const byId = Object.fromEntries(flow.nodes.map((n) => [n.id, n]));
    expect(byId.classifier).toMatchObject({
      label: 'Classifier',
      instruction: 'Classify the request: {{question}}',
      output: [{ key: 'category', type: 'enum', enum: ['billing', 'tech'], description: 'topic' }],
      updateState: { category: '{{output.category}}' },
    });
    expect(byId.route).toMatchObject({
      rules: [
        { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'Billing' },
      ],
    });
    expect(byId.billing).toMatchObject({
      label: 'Billing',
      tools: ['calculator'],
      requireApproval: true,
      updateState: { notes: '{{output}}' },
    });
    expect(byId.tech).toMatchObject({
      instruction: 'Help with a technical problem.\n\nThe problem: {{question}}',
      history: 'userQuestion',
    });
    expect(byId.resolved).toMatchObject({ scenarios: ['Solved', 'End'] });
    expect(byId.loop).toMatchObject({ to: 'tech' });
    expect(flow.edges).toEqual([
      { from: 'start', to: 'classifier' },
      { from: 'classifier', to: 'route' },
      { from: 'route', to: 'billing', when: 'Billing' },
      { from: 'route', to: 'tech', when: 'else' },
      { from: 'billing', to: 'end' },
      { from: 'tech', to: 'resolved' },
      { from: 'resolved', to: 'end_2', when: 'Solved' },
      { from: 'resolved', to: 'loop', when: 'End' },
    ]);
  });

  it('reports, by node, what did not come over as it was', () => {
    const said = report.map((item) => `${item.kind} ${item.nodeId}: ${item.message}`);
    // A chat model or a tool is reported by the node it feeds, not as a node of its own.
    expect(said.filter((line) => /chatOpenAI_0|calculator_0/.test(line))).toEqual([]);
    expect(said).toEqual(
      expect.arrayContaining([
        'changed start: its chat model becomes the provider you choose for the flow',
        'changed agentMemory_0: agent memory: Trellis keeps every session in the browser already',
        expect.stringMatching(
          /^dropped tech: tool "Custom Tool" \(customTool\) has no Trellis counterpart/,
        ),
        'dropped stickyNote_0: sticky note: "Billing asks before it runs tools."',
        expect.stringMatching(/^changed resolved: its structured output and rules/),
        'changed tech: its human prompt is added to the instruction',
      ]),
    );
  });

  it('runs with a scripted model: routes, loops back, and ends', async () => {
    let checks = 0;
    const model = nodeModel({
      classifier: () => '{"category": "tech"}',
      tech: () => 'Try restarting it.',
      resolved: () => (++checks === 1 ? 'End' : 'Solved'),
    });
    const runner = new InMemoryRunner({
      agent: compileFlow(flow, { model, tools: builtinTools(BUILTIN_TOOL_NAMES) }),
    });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    const events = await collect(
      runner.runAsync({
        userId: 'u',
        sessionId: session.id,
        newMessage: userMessage('It crashes'),
      }),
    );
    expect(nodePath(events)).toEqual([
      'start',
      'classifier',
      'route',
      'tech',
      'resolved',
      'loop',
      'tech',
      'resolved',
      'end_2',
    ]);
    expect(replies(events)).toContain('tech: Try restarting it.');
  });

  it('refuses what is neither a Sequential Agents nor an Agentflow V2 flow, with a clear message', () => {
    expect(() => importFlowiseFlow({ nodes: 'x' })).toThrow(/needs "nodes" and "edges" lists/);
    expect(() =>
      importFlowiseFlow({ nodes: [node('a', 'chatOpenAI', 'x', {})], edges: [] }),
    ).toThrow(
      /neither a Sequential Agents Start node \(seqStart\) nor an Agentflow V2 Start node \(startAgentflow\)/,
    );
  });
});
