// Flowise's own Sequential Agents marketplace templates (from its published npm package, fetched
// at test time: see test/support/flowise-templates.ts) imported as Trellis flows: every one
// validates and saves through the app, every edge between its Sequential nodes comes over, and
// the two that used to break (Agentic RAG's LLM Node → Tool Node, Multi Agents' condition
// outputs) come over as Flowise runs them.

import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileFlow,
  importFlowiseFlow,
  InMemoryRunner,
  validateFlow,
  type Flow,
} from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { flowiseTemplates, type FlowiseTemplate } from '../../support/flowise-templates.ts';
import { call, nodeModel, nodePath, replies } from '../../support/flows.ts';
import { memoryKnowledge } from '../../support/flow-knowledge.ts';
import { collect, freshDbName, userMessage } from '../../support/helpers.ts';

interface FlowiseFile {
  nodes: { id: string; position: { x: number; y: number }; data: { name: string } }[];
  edges: { source: string; target: string; targetHandle: string }[];
}

let sequential: { template: FlowiseTemplate; file: FlowiseFile; flow: Flow }[] = [];

beforeAll(() => {
  sequential = flowiseTemplates()
    .map((template) => ({ template, file: JSON.parse(template.text) as FlowiseFile }))
    .filter(({ file }) => file.nodes.some((node) => node.data.name === 'seqStart'))
    .map(({ template, file }) => ({
      template,
      file,
      flow: importFlowiseFlow(file, template.name).flow,
    }));
}, 180_000);

const byName = (name: string) => sequential.find(({ template }) => template.name === name)!;
const nodeLabelled = (flow: Flow, label: string) =>
  flow.nodes.find((node) => node.label === label)!;

describe("Flowise's Sequential Agents templates", () => {
  it('are the eight of Flowise 3.1.4', () => {
    expect(sequential.map(({ template }) => template.path)).toEqual([
      'marketplaces/agentflows/Agentic RAG.json',
      'marketplaces/agentflows/Branch Out Merge In.json',
      'marketplaces/agentflows/Essay Writing & Grading.json',
      'marketplaces/agentflows/Human In Loop RAG.json',
      'marketplaces/agentflows/Multi Agents.json',
      'marketplaces/agentflows/Patient Concierge.json',
      'marketplaces/agentflows/Plan and Execute.json',
      'marketplaces/agentflows/Support Routing System.json',
    ]);
  });

  it('each import into a flow that validates', () => {
    for (const { template, flow } of sequential)
      expect({ template: template.name, problems: validateFlow(flow) }).toEqual({
        template: template.name,
        problems: [],
      });
  });

  it('bring every node and every edge between Sequential nodes over', () => {
    for (const { template, file, flow } of sequential) {
      // A Flowise node and its Trellis node are drawn at the same place.
      const at = (position: { x: number; y: number }) =>
        `${Math.round(position.x)},${Math.round(position.y)}`;
      const here = new Map(flow.nodes.map((node) => [at(node.position!), node.id]));
      const steps = file.nodes.filter(
        (node) => node.data.name.startsWith('seq') && node.data.name !== 'seqState',
      );
      const idOf = new Map(steps.map((node) => [node.id, here.get(at(node.position))]));
      expect({ template: template.name, missing: steps.filter((n) => !idOf.get(n.id)) }).toEqual({
        template: template.name,
        missing: [],
      });
      expect(flow.nodes).toHaveLength(steps.length);
      const wanted = file.edges
        .filter((edge) => idOf.has(edge.source) && idOf.has(edge.target))
        .map((edge) => `${idOf.get(edge.source)} → ${idOf.get(edge.target)}`)
        .sort();
      const got = flow.edges.map((edge) => `${edge.from} → ${edge.to}`).sort();
      expect({ template: template.name, edges: got }).toEqual({
        template: template.name,
        edges: wanted,
      });
    }
  });

  it('each save through the app, and read back as imported', async () => {
    const runtime = new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => undefined,
      timing: { thinkMs: 0, chunkDelayMs: 0 },
    });
    for (const { template, flow } of sequential) {
      const result = await runtime.flows.save(JSON.stringify(flow));
      expect({ template: template.name, problems: result.problems }).toEqual({
        template: template.name,
        problems: [],
      });
      expect((await runtime.flows.get(result.saved!.id)).flow).toEqual(flow);
    }
  });

  it("sign each node's messages with its name as Flowise names it", () => {
    const { flow } = byName('Multi Agents');
    expect(flow.nodes.map((node) => node.id)).toEqual(
      expect.arrayContaining(['start', 'supervisor', 'software_engineer', 'code_reviewer']),
    );
    expect(flow.nodes.some((node) => /^seq[A-Z]\w*_\d+$/.test(node.id))).toBe(false);
  });

  it("name Multi Agents' condition edges by the rules' outputs", () => {
    const { flow } = byName('Multi Agents');
    const condition = flow.nodes.find((node) => node.type === 'condition')!;
    const out = flow.edges
      .filter((edge) => edge.from === condition.id)
      .map((edge) => [edge.when, edge.to]);
    expect(out.sort()).toEqual([
      ['Code Reviewer', 'code_reviewer'],
      ['Software Engineer', 'software_engineer'],
      ['else', 'summarize'],
    ]);
    expect(condition.type === 'condition' && condition.rules.map((rule) => rule.output)).toEqual([
      'Software Engineer',
      'Code Reviewer',
    ]);
  });

  it("keep Agentic RAG's LLM Node → Tool Node edge, and its tool's output in the grader's prompt", () => {
    const { flow } = byName('Agentic RAG');
    const agent = nodeLabelled(flow, 'Agent');
    const retrieve = nodeLabelled(flow, 'Retrieve');
    expect([agent.type, retrieve.type]).toEqual(['llm', 'tool']);
    expect(flow.edges).toContainEqual({ from: agent.id, to: retrieve.id });
    expect(retrieve).toMatchObject({ tools: [], endWithoutCalls: true });
    const grader = nodeLabelled(flow, 'Check if docs relevant');
    expect(grader.type === 'conditionAgent' && grader.instruction).toContain(
      `Here is the retrieved document:\n{{nodes.${retrieve.id}}}`,
    );
  });

  it('runs Agentic RAG as Flowise does: an answer without tool calls ends it; a retrieval is graded', async () => {
    const imported = byName('Agentic RAG').flow;
    const retrieve = nodeLabelled(imported, 'Retrieve');
    // Its Retriever Tools search knowledge bases the user picks.
    expect(retrieve.type === 'tool' && retrieve.knowledge?.map((ref) => ref.name)).toEqual([
      'search_apple',
      'search_tesla',
    ]);
    const picked = { apple: 'apple', tesla: 'tesla' } as Record<string, string>;
    const flow: Flow = {
      ...imported,
      nodes: imported.nodes.map((node) =>
        node === retrieve && node.type === 'tool'
          ? {
              ...node,
              knowledge: node.knowledge!.map((ref) => ({
                ...ref,
                baseId: picked[ref.name.slice('search_'.length)]!,
              })),
            }
          : node,
      ),
    };
    const knowledge = memoryKnowledge({
      apple: { 'apple.md': 'Apple sold 230 million phones in 2023.' },
      tesla: { 'tesla.md': 'Tesla sold 1.8 million cars in 2023.' },
    });
    let asked = 0;
    const graded: string[] = [];
    const model = nodeModel({
      agent: () =>
        ++asked === 1
          ? 'Hello! Ask me about Apple or Tesla.'
          : call('search_tesla', { query: 'Tesla cars sold' }),
      return_agent: () => 'Here is what I found.',
      check_if_docs_relevant: (request) => {
        graded.push(request.systemInstruction ?? '');
        return '{"output": "Generate"}';
      },
      generate: () => 'Tesla sold 1.8 million cars.',
    });
    const runner = new InMemoryRunner({ agent: compileFlow(flow, { model, knowledge }) });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    const turn = (text: string) =>
      collect(
        runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: userMessage(text) }),
      );

    const hello = await turn('Hi');
    expect(nodePath(hello)).toEqual(['start', 'agent', retrieve.id]);
    expect(replies(hello)).toEqual(['agent: Hello! Ask me about Apple or Tesla.']);

    const asking = await turn('How many cars did Tesla sell?');
    expect(nodePath(asking)).toEqual([
      'start',
      'agent',
      retrieve.id,
      'return_agent',
      'check_if_docs_relevant',
      'generate',
      'end',
    ]);
    expect(knowledge.searches).toEqual([
      { baseIds: ['tesla'], query: 'Tesla cars sold', limit: 5 },
    ]);
    expect(graded[0]).toContain('Here is the retrieved document:\n{"sources":[{"source":1');
    expect(graded[0]).toContain('Tesla sold 1.8 million cars in 2023.');
  });
});
