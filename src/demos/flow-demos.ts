// The example flows the app ships, and how the app builds the agent of any flow: on the offline
// flow demo model and the demo tools (real models come with provider settings).

import type { BaseAgent } from '../agents/base-agent.ts';
import { compileFlow, type CompileFlowOptions } from '../flows/compile-flow.ts';
import type { Flow } from '../flows/flow.ts';
import type { BaseLlm } from '../models/llm.ts';
import type { BaseTool } from '../tools/base-tool.ts';
import type { BaseToolset } from '../tools/base-toolset.ts';
import type { PolicyLookup } from '../tools/tool-policy.ts';
import { createFlowDemoModel } from './flow-demo-model.ts';
import { FLOW_DEMO_TOOLS } from './flow-demo-tools.ts';
import type { DemoTiming } from './writing-workflow.ts';

export { FLOW_DEMO_TOOL_NAMES as FLOW_DEMO_TOOLS } from './flow-demo-tools.ts';

/** Routing, approval and a bounded retry loop (try "Is invoice INV-1042 paid?"). */
const SUPPORT: Flow = {
  name: 'support',
  description:
    'Classifies a request, routes billing questions to an agent that looks up invoices (with your approval), and retries at most once.',
  state: [
    { key: 'category', operation: 'replace', default: null },
    { key: 'notes', operation: 'append', default: [] },
  ],
  nodes: [
    { id: 'start', type: 'start', moderation: { blocked: ['forbidden phrase'] } },
    {
      id: 'classify',
      type: 'llm',
      instruction: 'Classify the request.',
      output: [
        {
          key: 'category',
          type: 'enum',
          enum: ['billing', 'tech'],
          description: 'What the request is about',
        },
      ],
      updateState: { category: '{{output.category}}' },
    },
    {
      id: 'route',
      type: 'condition',
      rules: [
        { variable: '{{state.category}}', operation: 'is', value: 'billing', output: 'billing' },
      ],
    },
    {
      id: 'billing',
      type: 'agent',
      instruction: 'Help with billing. Look up invoices with the tool when the user names one.',
      tools: ['lookup_invoice'],
      requireApproval: true,
      history: 'all',
      updateState: { notes: '{{output}}' },
    },
    {
      id: 'tech',
      type: 'agent',
      instruction: 'Help with a technical problem: {{question}}',
      history: 'userQuestion',
    },
    {
      id: 'check',
      type: 'conditionAgent',
      instruction: 'Is the request resolved?',
      scenarios: ['resolved', 'unresolved'],
    },
    {
      id: 'again',
      type: 'loop',
      to: 'billing',
      maxLoops: 1,
      fallback: 'Let me hand this to a person.',
    },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'classify' },
    { from: 'classify', to: 'route' },
    { from: 'route', to: 'billing', when: 'billing' },
    { from: 'route', to: 'tech', when: 'else' },
    { from: 'tech', to: 'end' },
    { from: 'billing', to: 'check' },
    { from: 'check', to: 'end', when: 'resolved' },
    { from: 'check', to: 'again', when: 'unresolved' },
  ],
};

/** Parallel branches joined, an append reducer, and a tool node with approval. */
const RESEARCH_BRIEF: Flow = {
  name: 'research-brief',
  description:
    'Weighs advantages and drawbacks of a topic in parallel, joins them into a brief, and saves it as brief.md once you approve.',
  state: [
    { key: 'topic', operation: 'replace', default: null },
    { key: 'notes', operation: 'append', default: [] },
  ],
  nodes: [
    { id: 'start', type: 'start' },
    {
      id: 'outline',
      type: 'llm',
      instruction: 'Name the topic of the request.',
      output: [{ key: 'topic', type: 'string', description: 'The topic, in a few words' }],
      updateState: { topic: '{{output.topic}}' },
    },
    {
      id: 'pros',
      type: 'llm',
      instruction: 'List the advantages of {{state.topic}}.',
      history: 'none',
      updateState: { notes: '{{output}}' },
    },
    {
      id: 'cons',
      type: 'llm',
      instruction: 'List the drawbacks of {{state.topic}}.',
      history: 'none',
      updateState: { notes: '{{output}}' },
    },
    {
      id: 'draft',
      type: 'llm',
      instruction: 'Write a brief on {{state.topic}} from these notes: {{state.notes}}',
      history: 'none',
    },
    { id: 'save', type: 'tool', tools: ['save_brief'], requireApproval: true },
    {
      id: 'report',
      type: 'llm',
      instruction: 'Tell the user what was saved.',
      history: 'lastMessage',
    },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'outline' },
    { from: 'outline', to: 'pros' },
    { from: 'outline', to: 'cons' },
    { from: 'pros', to: 'draft' },
    { from: 'cons', to: 'draft' },
    { from: 'draft', to: 'save' },
    { from: 'save', to: 'report' },
    { from: 'report', to: 'end' },
  ],
};

export const EXAMPLE_FLOWS: readonly Flow[] = [SUPPORT, RESEARCH_BRIEF];

/** What the app adds to a flow's demo tools: its tool servers' tools, and the user's policies. */
export interface FlowAgentTools {
  /** By the name nodes use (`Server/tool`): toolsets listed when the flow runs. */
  tools?: Readonly<Record<string, BaseTool | BaseToolset>>;
  policyOf?: PolicyLookup;
  /** The other flows its Execute Flow nodes run, by name. */
  flows?: Readonly<Record<string, unknown>>;
  /** Its model nodes' context compactors, by model (see CompileFlowOptions). */
  contextCompactors?: CompileFlowOptions['contextCompactors'];
  /** What its knowledge references search (the app's knowledge bases). */
  knowledge?: CompileFlowOptions['knowledge'];
}

/**
 * The agent of a flow, on the demo tools and the offline demo model, or on the `models` its
 * nodes name (the app's providers, `Provider name/model`) and the `extra` tools (the app's tool
 * servers). Throws FlowValidationError.
 */
export function createFlowAgent(
  flow: unknown,
  timing?: DemoTiming,
  models: Readonly<Record<string, BaseLlm>> = {},
  extra: FlowAgentTools = {},
): BaseAgent {
  const tools = {
    ...Object.fromEntries(FLOW_DEMO_TOOLS.map((tool) => [tool.name, tool])),
    ...extra.tools,
  };
  return compileFlow(flow, {
    model: createFlowDemoModel(timing),
    models,
    tools,
    ...(extra.policyOf ? { policyOf: extra.policyOf } : {}),
    ...(extra.flows ? { flows: extra.flows } : {}),
    ...(extra.contextCompactors ? { contextCompactors: extra.contextCompactors } : {}),
    ...(extra.knowledge ? { knowledge: extra.knowledge } : {}),
  });
}
