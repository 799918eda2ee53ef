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
} from '../../src/index.ts';
import { nodeModel, nodePath, replies } from '../support/flows.ts';
import { collect, userMessage } from '../support/helpers.ts';

const seq = 'Start | Agent | Condition | LLMNode | ToolNode';
const node = (id: string, name: string, label: string, inputs: Record<string, unknown>) => ({
  id,
  type: 'customNode',
  position: { x: 0, y: 0 },
  data: { id, name, label, type: name.replace(/^seq/, ''), inputs, outputs: {} },
});
const flowEdge = (source: string, target: string, output = 'out') => ({
  source,
  target,
  sourceHandle: `${source}-output-${output}`,
  targetHandle: `${target}-input-sequentialNode-${seq}`,
  type: 'buttonedge',
  id: `${source}-${target}`,
});
const inputEdge = (source: string, target: string, input: string) => ({
  source,
  target,
  sourceHandle: `${source}-output-${source}`,
  targetHandle: `${target}-input-${input}`,
  type: 'buttonedge',
  id: `${source}-${target}-${input}`,
});

/** Support triage as a Flowise Sequential Agents chatflow export. */
const flowise = {
  description: 'Support triage',
  nodes: [
    node('chatOpenAI_0', 'chatOpenAI', 'ChatOpenAI', { modelName: 'gpt-4o-mini' }),
    node('agentMemory_0', 'agentMemory', 'Agent Memory', {}),
    node('seqStart_0', 'seqStart', 'Start', {
      model: '{{chatOpenAI_0.data.instance}}',
      agentMemory: '{{agentMemory_0.data.instance}}',
      state: '{{seqState_0.data.instance}}',
      inputModeration: '',
    }),
    node('seqState_0', 'seqState', 'State', {
      stateMemory: 'stateMemoryUI',
      stateMemoryUI: JSON.stringify([
        { key: 'category', type: 'Replace', defaultValue: '', actions: '', id: 0 },
        { key: 'notes', type: 'Append', defaultValue: '', actions: '', id: 1 },
      ]),
    }),
    node('seqLLMNode_0', 'seqLLMNode', 'LLM Node', {
      llmNodeName: 'Classifier',
      systemMessagePrompt: 'Classify the request: {request}',
      humanMessagePrompt: '',
      sequentialNode: ['{{seqStart_0.data.instance}}'],
      promptValues: JSON.stringify({ request: '{{question}}' }),
      llmStructuredOutput: JSON.stringify([
        { key: 'category', type: 'Enum', enumValues: 'billing, tech', description: 'topic', id: 0 },
      ]),
      updateStateMemory: 'updateStateMemoryUI',
      selectedUpdateStateMemoryTab_seqLLMNode_0: 'updateStateMemoryUI',
      updateStateMemoryUI: JSON.stringify([
        { key: 'category', value: '$flow.output.category', actions: '', id: 0 },
      ]),
    }),
    node('seqCondition_0', 'seqCondition', 'Condition', {
      conditionName: 'Route',
      sequentialNode: ['{{seqLLMNode_0.data.instance}}'],
      selectedConditionFunctionTab_seqCondition_0: 'conditionUI',
      conditionUI: JSON.stringify([
        {
          variable: '$flow.state.category',
          operation: 'Is',
          value: 'billing',
          output: 'Billing',
          id: 0,
        },
      ]),
    }),
    node('calculator_0', 'calculator', 'Calculator', {}),
    node('customTool_0', 'customTool', 'Custom Tool', { selectedTool: 'lookup' }),
    node('seqAgent_0', 'seqAgent', 'Agent', {
      agentName: 'Billing',
      systemMessagePrompt: 'Help with billing.',
      humanMessagePrompt: '',
      tools: ['{{calculator_0.data.instance}}'],
      sequentialNode: ['{{seqCondition_0.data.instance}}'],
      interrupt: true,
      approvalPrompt: 'You are about to execute tool: {tools}. Ask if user want to proceed',
      updateStateMemory: 'updateStateMemoryUI',
      updateStateMemoryUI: JSON.stringify([{ key: 'notes', value: '$flow.output.content', id: 0 }]),
    }),
    node('seqAgent_1', 'seqAgent', 'Agent', {
      agentName: 'Tech',
      systemMessagePrompt: 'Help with a technical problem.',
      humanMessagePrompt: 'The problem: {problem}',
      promptValues: JSON.stringify({ problem: '{{question}}' }),
      tools: ['{{customTool_0.data.instance}}'],
      sequentialNode: ['{{seqCondition_0.data.instance}}', '{{seqLoop_0.data.instance}}'],
      conversationHistorySelection: 'user_question',
    }),
    node('seqConditionAgent_0', 'seqConditionAgent', 'Condition Agent', {
      conditionAgentName: 'Resolved?',
      sequentialNode: ['{{seqAgent_1.data.instance}}'],
      systemMessagePrompt: 'Decide whether the problem is solved.',
      conditionAgentStructuredOutput: JSON.stringify([
        { key: 'status', type: 'Enum', enumValues: 'SOLVED, OPEN', description: 'status', id: 1 },
      ]),
      selectedConditionFunctionTab_seqConditionAgent_0: 'conditionUI',
      conditionUI: JSON.stringify([
        {
          variable: '$flow.output.status',
          operation: 'Is',
          value: 'SOLVED',
          output: 'Solved',
          id: 1,
        },
      ]),
    }),
    node('seqLoop_0', 'seqLoop', 'Loop', {
      sequentialNode: ['{{seqConditionAgent_0.data.instance}}'],
      loopToName: 'Tech',
    }),
    node('seqEnd_0', 'seqEnd', 'End', { sequentialNode: '{{seqAgent_0.data.instance}}' }),
    node('seqEnd_1', 'seqEnd', 'End', { sequentialNode: '{{seqConditionAgent_0.data.instance}}' }),
    node('stickyNote_0', 'stickyNote', 'Sticky Note', {
      note: 'Billing asks before it runs tools.',
    }),
  ],
  edges: [
    inputEdge('chatOpenAI_0', 'seqStart_0', 'model-BaseChatModel'),
    inputEdge('agentMemory_0', 'seqStart_0', 'agentMemory-BaseCheckpointSaver'),
    inputEdge('seqState_0', 'seqStart_0', 'state-State'),
    inputEdge('calculator_0', 'seqAgent_0', 'tools-Tool'),
    inputEdge('customTool_0', 'seqAgent_1', 'tools-Tool'),
    flowEdge('seqStart_0', 'seqLLMNode_0', 'seqStart-Start'),
    flowEdge('seqLLMNode_0', 'seqCondition_0', 'seqLLMNode-LLMNode'),
    flowEdge('seqCondition_0', 'seqAgent_0', 'billing-Condition'),
    flowEdge('seqCondition_0', 'seqAgent_1', 'end-Condition'),
    flowEdge('seqAgent_0', 'seqEnd_0', 'seqAgent-Agent'),
    flowEdge('seqAgent_1', 'seqConditionAgent_0', 'seqAgent-Agent'),
    flowEdge('seqConditionAgent_0', 'seqEnd_1', 'solved-Condition'),
    flowEdge('seqConditionAgent_0', 'seqLoop_0', 'end-Condition'),
  ],
};

describe('Flowise import', () => {
  const { flow, report } = importFlowiseFlow(flowise, 'Triage');

  it('converts every Sequential Agents node and edge it can, into a flow that validates', () => {
    expect(validateFlow(flow)).toEqual([]);
    expect(flow.state).toEqual([
      { key: 'category', operation: 'replace', default: null },
      { key: 'notes', operation: 'append', default: [] },
    ]);
    expect(flow.nodes.map((n) => [n.id, n.type])).toEqual([
      ['seqStart_0', 'start'],
      ['seqLLMNode_0', 'llm'],
      ['seqCondition_0', 'condition'],
      ['seqAgent_0', 'agent'],
      ['seqAgent_1', 'agent'],
      ['seqConditionAgent_0', 'conditionAgent'],
      ['seqLoop_0', 'loop'],
      ['seqEnd_0', 'end'],
      ['seqEnd_1', 'end'],
    ]);
    const byId = Object.fromEntries(flow.nodes.map((n) => [n.id, n]));
    expect(byId.seqLLMNode_0).toMatchObject({
      label: 'Classifier',
      instruction: 'Classify the request: {{question}}',
      output: [{ key: 'category', type: 'enum', enum: ['billing', 'tech'], description: 'topic' }],
      updateState: { category: '{{output.category}}' },
    });
    expect(byId.seqCondition_0).toMatchObject({
      rules: [
        { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'Billing' },
      ],
    });
    expect(byId.seqAgent_0).toMatchObject({
      label: 'Billing',
      tools: ['calculator'],
      requireApproval: true,
      updateState: { notes: '{{output}}' },
    });
    expect(byId.seqAgent_1).toMatchObject({
      instruction: 'Help with a technical problem.\n\nThe problem: {{question}}',
      history: 'userQuestion',
    });
    expect(byId.seqConditionAgent_0).toMatchObject({ scenarios: ['Solved', 'End'] });
    expect(byId.seqLoop_0).toMatchObject({ to: 'seqAgent_1' });
    expect(flow.edges).toEqual([
      { from: 'seqStart_0', to: 'seqLLMNode_0' },
      { from: 'seqLLMNode_0', to: 'seqCondition_0' },
      { from: 'seqCondition_0', to: 'seqAgent_0', when: 'Billing' },
      { from: 'seqCondition_0', to: 'seqAgent_1', when: 'else' },
      { from: 'seqAgent_0', to: 'seqEnd_0' },
      { from: 'seqAgent_1', to: 'seqConditionAgent_0' },
      { from: 'seqConditionAgent_0', to: 'seqEnd_1', when: 'Solved' },
      { from: 'seqConditionAgent_0', to: 'seqLoop_0', when: 'End' },
    ]);
  });

  it('reports, by node, what did not come over as it was', () => {
    const said = report.map((item) => `${item.kind} ${item.nodeId}: ${item.message}`);
    expect(said).toEqual(
      expect.arrayContaining([
        'changed seqStart_0: its chat model becomes the provider you choose for the flow',
        'changed agentMemory_0: agent memory: Trellis keeps every session in the browser already',
        expect.stringMatching(
          /^dropped seqAgent_1: tool "Custom Tool" \(customTool\) has no Trellis counterpart/,
        ),
        'dropped stickyNote_0: sticky note: "Billing asks before it runs tools."',
        expect.stringMatching(/^changed seqConditionAgent_0: its structured output and rules/),
        'changed seqAgent_1: its human prompt is added to the instruction',
      ]),
    );
  });

  it('runs with a scripted model: routes, loops back, and ends', async () => {
    let checks = 0;
    const model = nodeModel({
      seqLLMNode_0: () => '{"category": "tech"}',
      seqAgent_1: () => 'Try restarting it.',
      seqConditionAgent_0: () => (++checks === 1 ? 'End' : 'Solved'),
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
      'seqStart_0',
      'seqLLMNode_0',
      'seqCondition_0',
      'seqAgent_1',
      'seqConditionAgent_0',
      'seqLoop_0',
      'seqAgent_1',
      'seqConditionAgent_0',
      'seqEnd_1',
    ]);
    expect(replies(events)).toContain('seqAgent_1: Try restarting it.');
  });

  it('refuses what is not a Sequential Agents flow, with a clear message', () => {
    expect(() => importFlowiseFlow({ nodes: 'x' })).toThrow(/needs "nodes" and "edges" lists/);
    expect(() =>
      importFlowiseFlow({ nodes: [node('a', 'chatOpenAI', 'x', {})], edges: [] }),
    ).toThrow(/no Sequential Agents Start node/);
  });
});
