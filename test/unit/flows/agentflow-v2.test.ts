// Flowise 3's Agentflow V2 flows: the real templates of its marketplace (flowise@3.1.4's
// `marketplaces/agentflowsv2`) import; every node either comes over or is named in the report;
// the flows made only of nodes Trellis has validate; and Supervisor Worker runs as Flowise
// defines it: the supervisor routes each worker, and FINISH ends with the final answer.

import { beforeAll, describe, expect, it } from 'vitest';
import {
  compileFlow,
  importFlowiseFlow,
  validateFlow,
  type Event,
  type Flow,
  type FlowiseReportItem,
} from '../../../src/index.ts';
import { BROUGHT_OVER } from '../../../src/flows/flowise/agentflow-v2.ts';
import { htmlText, v2Text } from '../../../src/flows/flowise/v2-text.ts';
import { BUILTIN_TOOL_NAMES } from '../../../src/tools/builtin-tools.ts';
import { flowiseTemplates, type FlowiseTemplate } from '../../support/flowise-templates.ts';
import { nodeModel, nodePath, replies, runFlow } from '../../support/flows.ts';
import { collect, freshDbName } from '../../support/helpers.ts';
import { openRunnerSession, userId } from '../../support/runner-session.ts';
import { openIndexedDb } from '../../support/service-kinds.ts';
import { pendingApprovals } from '../../../src/ui/chat/approvals-model.ts';

interface V2File {
  nodes: {
    id: string;
    parentNode?: string;
    data: { name: string; label?: string; inputs?: Record<string, unknown> };
  }[];
}

let v2: { template: FlowiseTemplate; file: V2File; flow: Flow; report: FlowiseReportItem[] }[] = [];

beforeAll(() => {
  v2 = flowiseTemplates()
    .filter((template) => template.path.startsWith('marketplaces/agentflowsv2/'))
    .map((template) => {
      const file = JSON.parse(template.text) as V2File;
      return { template, file, ...importFlowiseFlow(file, template.name) };
    });
}, 180_000);

const byName = (name: string) => v2.find(({ template }) => template.name === name)!;

describe("Flowise's Agentflow V2 templates", () => {
  it('are the thirteen of Flowise 3.1.4, and each imports', () => {
    expect(v2.map(({ template }) => template.name)).toEqual([
      'Agentic RAG',
      'Agents Handoff',
      'Deep Research With Multi-turn Conversations',
      'Deep Research With Subagents',
      'Human In The Loop',
      'Interacting With API',
      'Iterations',
      'Simple RAG',
      'SQL Agent',
      'Structured Output',
      'Supervisor Worker',
      'Translator',
      'Workplace Chat',
    ]);
    for (const { flow } of v2) expect(flow.nodes[0]?.type).toBe('start');
  });

  it('bring every node over, or name it in the report', () => {
    for (const { template, file, flow, report } of v2) {
      for (const node of file.nodes) {
        const label = node.data.label ?? node.data.name;
        const came =
          (BROUGHT_OVER.has(node.data.name) &&
            flow.nodes.some(
              (made) =>
                made.label === label &&
                // A node inside an Iteration stays inside it.
                (node.parentNode === undefined) === (made.parent === undefined),
            )) ||
          (node.data.name === 'stickyNoteAgentflow' &&
            (flow.notes ?? []).some(
              (note) => note.text === htmlText(String(node.data.inputs?.['note'] ?? '')),
            ));
        const said = report.some(
          (item) =>
            item.kind === 'dropped' &&
            (item.nodeId === node.id || item.message.startsWith(`${label} is`)),
        );
        expect({ template: template.name, node: node.id, accounted: came || said }).toEqual({
          template: template.name,
          node: node.id,
          accounted: true,
        });
      }
    }
  });

  it('answer with a Direct Reply’s message, its variables filled', async () => {
    const flow: Flow = {
      name: 'research',
      state: [{ key: 'findings', operation: 'replace', default: 'three facts' }],
      nodes: [
        { id: 'start', type: 'start' },
        {
          id: 'reply',
          type: 'reply',
          label: 'Report',
          message: 'Found: {{state.findings}} for "{{question}}"',
        },
      ],
      edges: [{ from: 'start', to: 'reply' }],
    };
    expect(validateFlow(flow)).toEqual([]);
    const { turns } = await runFlow(compileFlow(flow, { model: nodeModel({}) }), 'kites');
    expect(replies(turns[0]!)).toEqual(['reply: Found: three facts for "kites"']);
    const imported = byName('Deep Research With Subagents').flow.nodes.find(
      (n) => n.type === 'reply',
    );
    expect(imported).toMatchObject({ label: 'Generate Report', message: '{{state.findings}}' });
  });

  it('make the flows of nodes Trellis has into flows that validate', () => {
    // All but Deep Research With Multi-turn Conversations (Flowise's own {{ chat_history }} and
    // {{ runtime_messages_length }}). Knowledge with no base picked yet is a good flow file.
    for (const { template } of v2.filter(({ template }) => !/Multi-turn/.test(template.name))) {
      const name = template.name;
      expect({
        name,
        problems: validateFlow(byName(name).flow, { tools: [...BUILTIN_TOOL_NAMES] }),
      }).toEqual({ name, problems: [] });
    }
  });

  it('read the prompts out of the editor’s HTML, with their variables as templates', () => {
    const translator = byName('Translator').flow.nodes.find((node) => node.type === 'llm')!;
    expect(translator).toMatchObject({
      label: 'Translator',
      history: 'none',
      instruction:
        'You are a helpful assistant that translates English to Japanese language. Return only Japanese language\n\nUser: English:\n{{question}}\nJapanese:',
    });
    const supervisor = byName('Supervisor Worker').flow.nodes.find((n) => n.id === 'supervisor')!;
    expect(supervisor).toMatchObject({
      type: 'llm',
      output: [
        { key: 'next', type: 'enum', enum: ['FINISH', 'SOFTWARE', 'REVIEWER'] },
        { key: 'instructions', type: 'string' },
        { key: 'reasoning', type: 'string' },
      ],
      updateState: { next: '{{output.next}}', instruction: '{{output.instructions}}' },
    });
    expect(byName('Supervisor Worker').flow.state).toEqual([
      { key: 'next', operation: 'replace', default: null },
      { key: 'instruction', operation: 'replace', default: null },
    ]);
  });

  it('name condition edges by their rules and scenarios, the last output as else', () => {
    expect(byName('Supervisor Worker').flow.edges).toContainEqual({
      from: 'check_next_worker',
      to: 'generate_final_answer',
      when: 'else',
    });
    const handoff = byName('Agents Handoff').flow;
    const intention = handoff.nodes.find((node) => node.type === 'conditionAgent')!;
    expect(intention.type === 'conditionAgent' && intention.scenarios).toHaveLength(3);
    expect(handoff.edges.filter((edge) => edge.from === intention.id).map((e) => e.when)).toEqual(
      intention.type === 'conditionAgent' ? intention.scenarios : [],
    );
  });

  it('say what a node brings that has no counterpart, by node', () => {
    const { report } = byName('Human In The Loop');
    expect(report.map((item) => item.message)).toContain(
      'tool "gmail" has no Trellis counterpart: choose one of yours (a tool server\'s, in Settings → Tool servers); until then the node passes on',
    );
    expect(report.map((item) => item.message)).toContain(
      'tool "googleCustomSearch" has no Trellis counterpart: give the node one of yours (a tool server\'s, in Settings → Tool servers)',
    );
  });

  it('runs Supervisor Worker as Flowise defines it: each worker routed, FINISH ends', async () => {
    const flow = byName('Supervisor Worker').flow;
    const picks = ['SOFTWARE', 'REVIEWER', 'FINISH'];
    const model = nodeModel({
      supervisor: (_request, call) =>
        JSON.stringify({
          next: picks[call - 1],
          instructions: `task ${call}`,
          reasoning: 'because',
        }),
      software_engineer: (request) =>
        `code for ${/task \d/.exec(request.systemInstruction ?? '')?.[0]}`,
      code_reviewer: (request) =>
        `review of ${/task \d/.exec(request.systemInstruction ?? '')?.[0]}`,
      generate_final_answer: () => 'the final answer',
    });
    const { turns, state } = await runFlow(compileFlow(flow, { model }), 'Write a snake game');
    const events = turns[0]!;
    expect(nodePath(events)).toEqual([
      'start',
      'supervisor',
      'check_next_worker',
      'software_engineer',
      'loop_to_supervisor',
      'supervisor',
      'check_next_worker',
      'code_reviewer',
      'loop_to_supervisor_2',
      'supervisor',
      'check_next_worker',
      'generate_final_answer',
    ]);
    expect(replies(events).filter((reply) => !reply.startsWith('supervisor'))).toEqual([
      'software_engineer: code for task 1',
      'code_reviewer: review of task 2',
      'generate_final_answer: the final answer',
    ]);
    expect(state).toMatchObject({ next: 'FINISH', instruction: 'task 3' });
  });
});

describe('a Human Input node', () => {
  /** Draft → ask → proceed: publish; reject: back to the draft (with the feedback). */
  const review: Flow = {
    name: 'review',
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'writer', type: 'agent', instruction: 'Write. Notes: {{output}}' },
      { id: 'ask', type: 'humanInput', label: 'Check', description: 'Send "{{output}}"?' },
      { id: 'again', type: 'loop', to: 'writer', maxLoops: 3 },
      { id: 'sent', type: 'reply', message: 'Sent: {{nodes.writer}} ({{output}})' },
    ],
    edges: [
      { from: 'start', to: 'writer' },
      { from: 'writer', to: 'ask' },
      { from: 'ask', to: 'sent', when: 'proceed' },
      { from: 'ask', to: 'again', when: 'reject' },
    ],
  };
  const requestOf = (events: readonly Event[]) =>
    events
      .flatMap((event) => event.content?.parts ?? [])
      .map((part) => part.functionCall)
      .findLast((call) => call?.name === 'adk_request_confirmation')!;

  it('asks as an approval, across a reload; a reject with feedback loops back, a proceed goes on', async () => {
    expect(validateFlow(review)).toEqual([]);
    const drafts: string[] = [];
    const model = () =>
      nodeModel({
        writer: (request) => {
          drafts.push(request.systemInstruction ?? '');
          return `draft ${drafts.length}`;
        },
      });
    let services = openIndexedDb(freshDbName());
    try {
      const first = await openRunnerSession(services, compileFlow(review, { model: model() }), {
        resumable: true,
      });
      const asked = await first.run('a post');
      const request = requestOf(asked);
      expect(request.args).toMatchObject({
        originalFunctionCall: { name: 'human_input', args: { input: 'draft 1' } },
        toolConfirmation: { hint: 'Send "draft 1"?' },
      });
      expect(asked.find((event) => event.longRunningToolIds?.length)?.author).toBe('ask');
      expect(pendingApprovals(asked).map((a) => [a.author, a.humanInput, a.hint, a.args])).toEqual([
        ['ask', true, 'Send "draft 1"?', { input: 'draft 1' }],
      ]);

      // A reload: a new runner over the same database; the reject carries feedback.
      services = await services.restart();
      const again = await openRunnerSession(services, compileFlow(review, { model: model() }), {
        resumable: true,
      });
      const answer = (id: string, confirmed: boolean, payload?: unknown) =>
        collect(
          again.runner.runAsync({
            userId,
            sessionId: first.sessionId,
            newMessage: {
              role: 'user',
              parts: [
                {
                  functionResponse: {
                    id,
                    name: 'adk_request_confirmation',
                    response: { confirmed, ...(payload ? { payload } : {}) },
                  },
                },
              ],
            },
          }),
        );
      const rejected = await answer(request.id!, false, { feedback: 'shorter please' });
      expect(nodePath(rejected)).toEqual(['again', 'writer', 'ask']);
      expect(drafts.at(-1)).toContain('Notes: shorter please');
      const proceeded = await answer(requestOf(rejected).id!, true);
      expect(nodePath(proceeded)).toEqual(['sent']);
      expect(replies(proceeded)).toEqual(['sent: Sent: draft 2 (draft 2)']);
    } finally {
      services.close();
    }
  });

  it('comes over from Flowise V2 with its proceed and reject edges', () => {
    const { flow } = byName('Human In The Loop');
    const ask = flow.nodes.find((node) => node.type === 'humanInput')!;
    expect(ask).toMatchObject({
      label: 'Human Input 0',
      description: 'Are you sure you want to proceed?',
    });
    expect(flow.edges.filter((edge) => edge.from === ask.id)).toEqual([
      { from: ask.id, to: 'loop_back_to_agent', when: 'reject' },
      { from: ask.id, to: 'email_subject_body', when: 'proceed' },
    ]);
  });

  it('refuses an edge out of it that is neither proceed nor reject', () => {
    const wrong = {
      ...review,
      edges: [...review.edges.slice(0, 2), { from: 'ask', to: 'sent', when: 'yes' }],
    };
    expect(validateFlow(wrong).map((problem) => problem.nodeId)).toContain('ask');
  });
});

describe('a damaged or hostile Agentflow V2 file', () => {
  const start = {
    id: 'startAgentflow_0',
    data: {
      name: 'startAgentflow',
      label: 'Start',
      inputs: {
        startState: [
          { key: '__proto__', value: '<p>x</p>' },
          { key: 'ok', value: 1 },
        ],
      },
    },
  };
  const loop = (inputs: unknown) => ({
    id: 'loopAgentflow_0',
    data: { name: 'loopAgentflow', label: 'Again', inputs },
  });

  it('imports what it can read, and says what points nowhere', () => {
    const { flow, report } = importFlowiseFlow({
      nodes: [
        start,
        loop({ loopBackToNode: 'ghostAgentflow_9-Ghost', maxLoopCount: 1e9 }),
        {
          id: 'llmAgentflow_0',
          data: { name: 'llmAgentflow', label: 'Odd', inputs: 'not a form' },
        },
        { id: 'weird', data: { name: 'someFutureAgentflow', label: 'Future' } },
      ],
      edges: [
        { source: 'startAgentflow_0', target: 'loopAgentflow_0', sourceHandle: 7 },
        { source: 'startAgentflow_0', target: 'llmAgentflow_0' },
      ],
    });
    expect(flow.nodes.map((node) => node.type)).toEqual(['start', 'loop', 'llm']);
    expect(flow.nodes[1]).toMatchObject({ type: 'loop', to: '' });
    // A state key named like a prototype is a key like any other, not a prototype.
    expect(flow.state?.map((key) => key.key)).toEqual(['__proto__', 'ok']);
    expect(Object.getPrototypeOf(flow)).toBe(Object.prototype);
    expect(report.map((item) => item.message)).toEqual(
      expect.arrayContaining([
        'it loops back to "ghostAgentflow_9-Ghost", which it names no node of this flow by',
        'Future (someFutureAgentflow) has no Trellis counterpart',
      ]),
    );
    expect(validateFlow(flow).map((problem) => problem.nodeId)).toContain('again');
  });
});

describe('the editor’s HTML as text', () => {
  it('keeps paragraphs, breaks and list items as lines, and reads entities', () => {
    expect(
      htmlText(
        '<p>One &amp; two</p><p>Three<br>four</p><ol><li><p><strong>A</strong></p></li></ol>',
      ),
    ).toBe('One & two\nThree\nfour\n\n- A');
    expect(htmlText('no markup {{ question }}')).toBe('no markup {{ question }}');
  });

  it('makes its variables templates, and keeps and names the ones it has none for', () => {
    const ids = (id: string) => (id === 'llmAgentflow_0' ? 'planner' : undefined);
    expect(
      v2Text(
        '<p>{{ question }} {{ $flow.state.topic }} {{ output.next }} {{ llmAgentflow_0.output.plan }} {{ llmAgentflow_0 }} {{ agentAgentflow_9 }} {{ $form.query }}</p>',
        ids,
      ),
    ).toEqual({
      text: '{{question}} {{state.topic}} {{output.next}} {{nodes.planner.plan}} {{nodes.planner}} {{ agentAgentflow_9 }} {{form.query}}',
      unknown: ['agentAgentflow_9'],
    });
  });
});
