// ADK's callback rules side by side with @google/adk 2.0, as callbacks-parity.test.ts runs the
// callbacks themselves: a list runs in order until one answers, each callback's state lands in
// the event it belongs to, and an agent's callbacks run as its own when it is a workflow node.

import { describe, expect, it } from 'vitest';
import {
  modelContent,
  sideBySide,
  text,
  weatherAgent,
  weatherScript,
  type Ctx,
  type Lib,
  type Response,
} from '../../support/callback-parity.ts';

describe('lists of callbacks, side by side with @google/adk 2.0', () => {
  it('run in order until one returns a value; the ones after it do not run', async () => {
    const calls: string[] = [];
    const build = (lib: Lib) => {
      const step =
        (name: string, answer?: (context: Ctx) => unknown) =>
        ({ context }: { context: Ctx }) => {
          calls.push(`${lib.name} ${name}`);
          context.state.set(name, true);
          return answer?.(context);
        };
      return weatherAgent(lib, {
        beforeModelCallback: [step('model_1'), step('model_2'), step('model_3')],
        beforeToolCallback: [
          step('tool_1'),
          step('tool_2', () => ({ city: 'Paris', sky: 'cached' })),
          step('tool_3'),
        ],
        afterToolCallback: [
          step('after_1'),
          step('after_2', () => ({ rewritten: true })),
          step('after_3'),
        ],
        afterModelCallback: [step('answer_1', () => undefined)],
      });
    };
    const session = await sideBySide(build, ['weather in Paris']);
    const adkCalls = calls.filter((c) => c.startsWith('adk ')).map((c) => c.slice(4));
    expect(calls.filter((c) => c.startsWith('trellis ')).map((c) => c.slice(8))).toEqual(adkCalls);
    expect(adkCalls).toEqual([
      ...['model_1', 'model_2', 'model_3', 'answer_1'],
      ...['tool_1', 'tool_2', 'after_1', 'after_2'],
      ...['model_1', 'model_2', 'model_3', 'answer_1'],
    ]);
    expect(session.events.flatMap((e) => e.responses ?? [])).toEqual([
      'get_weather → {"rewritten":true}',
    ]);
    expect(session.state).toEqual({
      ...{ model_1: true, model_2: true, model_3: true, answer_1: true },
      ...{ tool_1: true, tool_2: true, after_1: true, after_2: true },
    });
  });

  it('a list of before-agent callbacks: the first writes state, the second answers', async () => {
    const build = (lib: Lib) =>
      new lib.LlmAgent({
        name: 'greeter',
        model: lib.model(weatherScript),
        beforeAgentCallback: [
          (context: Ctx) => {
            context.state.set('checked', true);
            return undefined;
          },
          () => modelContent('Closed today.'),
          () => modelContent('never seen'),
        ],
      });
    const session = await sideBySide(build, ['hi']);
    expect(session.events.at(-1)).toEqual({
      author: 'greeter',
      text: 'Closed today.',
      stateDelta: { checked: true },
    });
  });
});

describe('callbacks writing state, side by side with @google/adk 2.0', () => {
  it('each write lands in the delta of the event it belongs to', async () => {
    const mark =
      (key: string) =>
      (params: { context?: Ctx } | Ctx): undefined => {
        const context = 'context' in params && params.context ? params.context : (params as Ctx);
        context.state.set(key, context.agentName);
        return undefined;
      };
    const build = (lib: Lib) =>
      weatherAgent(lib, {
        outputKey: 'answer',
        beforeAgentCallback: mark('before_agent'),
        beforeModelCallback: mark('before_model'),
        afterModelCallback: mark('after_model'),
        beforeToolCallback: mark('before_tool'),
        afterToolCallback: mark('after_tool'),
        afterAgentCallback: mark('after_agent'),
      });
    const session = await sideBySide(build, ['weather in Oslo']);
    expect(session.events.map((e) => [e.author, Object.keys(e.stateDelta ?? {})])).toEqual([
      ['user', []],
      ['forecaster', ['before_agent']],
      ['forecaster', ['before_model', 'after_model']],
      ['forecaster', ['before_tool', 'after_tool']],
      ['forecaster', ['before_model', 'after_model', 'answer']],
      ['forecaster', ['after_agent']],
    ]);
    expect(session.state.answer).toBe('get_weather says {"city":"Oslo","sky":"sunny"}');
  });
});

describe('callbacks in a workflow, side by side with @google/adk 2.0', () => {
  it('an agent node’s callbacks run as the agent’s: its output is what they made of the answer', async () => {
    const after = (_ctx: unknown, input: unknown) => `next node got: ${String(input)}`;
    const build = (lib: Lib) =>
      new lib.Workflow({
        name: 'flow',
        edges: [
          [
            'START',
            new lib.LlmAgent({
              name: 'writer',
              model: lib.model(weatherScript),
              beforeModelCallback: ({ context }: { context: Ctx }) => {
                context.state.set('guarded', true);
                return undefined;
              },
              afterModelCallback: ({ response }: { response: Response }) =>
                text(`${response.content?.parts?.[0]?.text ?? ''}!`),
              afterAgentCallback: () => modelContent('Signed, the writer.'),
            }),
            after,
          ],
        ],
      });
    const session = await sideBySide(build, ['tea']);
    expect(session.events.filter((e) => e.output !== undefined)).toEqual([
      {
        author: 'writer',
        text: 'heard: tea!',
        output: 'heard: tea!',
        stateDelta: { guarded: true },
      },
      { author: 'writer', text: 'Signed, the writer.', output: 'Signed, the writer.' },
      {
        author: 'after',
        text: 'next node got: Signed, the writer.',
        output: 'next node got: Signed, the writer.',
      },
    ]);
  });
});
