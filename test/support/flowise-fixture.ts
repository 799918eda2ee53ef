// A Flowise Sequential Agents chatflow export, written by hand from Flowise's node definitions (as
// Flowise saves one: `customNode`s named seqStart…seqEnd, their forms in `data.inputs` with tables
// as JSON text, edges between handles), for the Flowise import's tests.

const seq = 'Start | Agent | Condition | LLMNode | ToolNode';
export const flowiseNode = (
  id: string,
  name: string,
  label: string,
  inputs: Record<string, unknown>,
) => ({
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
export const flowiseTriage = {
  description: 'Support triage',
  nodes: [
    flowiseNode('chatOpenAI_0', 'chatOpenAI', 'ChatOpenAI', { modelName: 'gpt-4o-mini' }),
    flowiseNode('agentMemory_0', 'agentMemory', 'Agent Memory', {}),
    flowiseNode('seqStart_0', 'seqStart', 'Start', {
      model: '{{chatOpenAI_0.data.instance}}',
      agentMemory: '{{agentMemory_0.data.instance}}',
      state: '{{seqState_0.data.instance}}',
      inputModeration: '',
    }),
    flowiseNode('seqState_0', 'seqState', 'State', {
      stateMemory: 'stateMemoryUI',
      stateMemoryUI: JSON.stringify([
        { key: 'category', type: 'Replace', defaultValue: '', actions: '', id: 0 },
        { key: 'notes', type: 'Append', defaultValue: '', actions: '', id: 1 },
      ]),
    }),
    flowiseNode('seqLLMNode_0', 'seqLLMNode', 'LLM Node', {
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
    flowiseNode('seqCondition_0', 'seqCondition', 'Condition', {
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
    flowiseNode('calculator_0', 'calculator', 'Calculator', {}),
    flowiseNode('customTool_0', 'customTool', 'Custom Tool', { selectedTool: 'lookup' }),
    flowiseNode('seqAgent_0', 'seqAgent', 'Agent', {
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
    flowiseNode('seqAgent_1', 'seqAgent', 'Agent', {
      agentName: 'Tech',
      systemMessagePrompt: 'Help with a technical problem.',
      humanMessagePrompt: 'The problem: {problem}',
      promptValues: JSON.stringify({ problem: '{{question}}' }),
      tools: ['{{customTool_0.data.instance}}'],
      sequentialNode: ['{{seqCondition_0.data.instance}}', '{{seqLoop_0.data.instance}}'],
      conversationHistorySelection: 'user_question',
    }),
    flowiseNode('seqConditionAgent_0', 'seqConditionAgent', 'Condition Agent', {
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
    flowiseNode('seqLoop_0', 'seqLoop', 'Loop', {
      sequentialNode: ['{{seqConditionAgent_0.data.instance}}'],
      loopToName: 'Tech',
    }),
    flowiseNode('seqEnd_0', 'seqEnd', 'End', { sequentialNode: '{{seqAgent_0.data.instance}}' }),
    flowiseNode('seqEnd_1', 'seqEnd', 'End', {
      sequentialNode: '{{seqConditionAgent_0.data.instance}}',
    }),
    flowiseNode('stickyNote_0', 'stickyNote', 'Sticky Note', {
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

/** The export as the file a user picks (for a file input's setInputFiles). */
export const flowiseTriageFile = {
  name: 'Triage.json',
  mimeType: 'application/json',
  buffer: Buffer.from(JSON.stringify(flowiseTriage)),
};
