// Flowise 3.1.4's own V2 templates, imported and run on a scripted model as Flowise defines them:
// Iterations (each item runs the nodes inside, its `$iteration` filled) and Human In The Loop
// (its form's values reach the agent, a reject loops back with the feedback, a proceed goes on
// through the structured draft to the Tool node). Supervisor Worker runs in agentflow-v2.test.ts.

import { beforeAll, describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  compileFlow,
  importFlowiseFlow,
  type Event,
  type Flow,
} from '../../../src/index.ts';
import { BUILTIN_TOOLS } from '../../../src/tools/builtin-tools.ts';
import { flowiseTemplates } from '../../support/flowise-templates.ts';
import { nodeModel, nodePath, replies } from '../../support/flows.ts';
import { collect, userMessage } from '../../support/helpers.ts';

let templates = new Map<string, Flow>();

beforeAll(() => {
  templates = new Map(
    flowiseTemplates()
      .filter((template) => template.path.startsWith('marketplaces/agentflowsv2/'))
      .map((template) => [
        template.name,
        importFlowiseFlow(JSON.parse(template.text), template.name).flow,
      ]),
  );
}, 180_000);

const confirmation = (events: readonly Event[]) =>
  events
    .flatMap((event) => event.content?.parts ?? [])
    .map((part) => part.functionCall)
    .findLast((call) => call?.name === 'adk_request_confirmation')!;

describe('Flowise V2 templates, run', () => {
  it('Iterations: each item runs the two nodes inside, then the agent after it', async () => {
    const flow = templates.get('Iterations')!;
    expect(flow.nodes.find((node) => node.type === 'iteration')).toMatchObject({
      input: '[{"item": "abc"}, {"item": "def"}]',
      size: { width: 481, height: 250 },
    });
    const model = nodeModel({
      gemini_agent: (request) =>
        `gemini ${/Reply only:\n(\S+)/.exec(request.systemInstruction ?? '')?.[1]}`,
      ollama_agent: (request) =>
        `ollama ${/Reply only:\n(\S+)/.exec(request.systemInstruction ?? '')?.[1]}`,
      agent: () => 'all done',
    });
    const runner = new InMemoryRunner({ agent: compileFlow(flow, { model }) });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'ada',
    });
    const events = await collect(
      runner.runAsync({ userId: 'ada', sessionId: session.id, newMessage: userMessage('go') }),
    );
    expect(nodePath(events)).toEqual([
      'start',
      'iteration_0',
      'gemini_agent@Iterations.iteration_0.0',
      'ollama_agent@Iterations.iteration_0.0',
      'iteration_0',
      'gemini_agent@Iterations.iteration_0.1',
      'ollama_agent@Iterations.iteration_0.1',
      'iteration_0',
      'agent',
    ]);
    expect(replies(events)).toEqual([
      'gemini_agent: gemini abc',
      'ollama_agent: ollama abc',
      'gemini_agent: gemini def',
      'ollama_agent: ollama def',
      'agent: all done',
    ]);
  });

  it('Human In The Loop: the form reaches the agent; reject loops back with feedback; proceed goes on', async () => {
    const flow = templates.get('Human In The Loop')!;
    expect(flow.nodes[0]).toMatchObject({
      type: 'start',
      form: {
        title: 'Email Inquiry',
        fields: [
          { name: 'subject', label: 'Subject', type: 'string' },
          { name: 'body', label: 'Body', type: 'string' },
          { name: 'from', label: 'From', type: 'string' },
        ],
      },
    });
    const seen: string[] = [];
    const model = nodeModel({
      email_reply_agent: (request, call) => {
        seen.push(
          request.contents
            .map((content) => content.parts?.map((p) => p.text ?? '').join(''))
            .join(' | '),
        );
        return `reply draft ${call}`;
      },
      email_subject_body: () => '{"subject": "Re: pricing", "body": "Dear Ada"}',
    });
    const runner = new InMemoryRunner({
      agent: compileFlow(flow, { model, tools: [...BUILTIN_TOOLS] }),
      resumabilityConfig: { isResumable: true },
    });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'ada',
    });
    const form = { subject: 'Pricing', body: 'How much is it?', from: 'ada@example.com' };
    const asked = await collect(
      runner.runAsync({
        userId: 'ada',
        sessionId: session.id,
        newMessage: userMessage('Subject: Pricing\nBody: How much is it?\nFrom: ada@example.com'),
        stateDelta: { form },
      }),
    );
    expect(nodePath(asked)).toEqual(['start', 'email_reply_agent', 'human_input_0']);
    expect(seen[0]).toContain('How much is it?');
    const answer = (id: string, confirmed: boolean, payload?: unknown) =>
      collect(
        runner.runAsync({
          userId: 'ada',
          sessionId: session.id,
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
    const rejected = await answer(confirmation(asked).id!, false, {
      feedback: 'mention the discount',
    });
    expect(nodePath(rejected)).toEqual([
      'loop_back_to_agent',
      'email_reply_agent',
      'human_input_0',
    ]);
    expect(seen[1]).toContain('mention the discount');
    const proceeded = await answer(confirmation(rejected).id!, true);
    expect(nodePath(proceeded)).toEqual(['email_subject_body', 'send_email']);
    const stored = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'ada',
      sessionId: session.id,
    });
    expect(stored!.state['form']).toEqual(form);
    expect(replies(proceeded)).toEqual([
      'email_subject_body: {"subject": "Re: pricing", "body": "Dear Ada"}',
    ]);
  });
});
