// ADK's agent callbacks across a run's life: a rewind takes back what they wrote, a tool
// confirmation pauses and resumes through them, and in a resumable run their events carry the
// agent's checkpoints, so a resume runs neither an agent nor its callbacks twice.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  LlmAgent,
  ScriptedModel,
  SequentialAgent,
  type CallbackContext,
  type Content,
  type ToolContext,
} from '../../../src/index.ts';
import { callingModel, openInMemory as open, said } from '../../support/callback-agents.ts';
import { describeEvents } from '../../support/describe-events.ts';
import { collect } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

let services: Services | undefined;
afterEach(() => services?.close());

describe.each(serviceKinds)('callbacks and rewind ($name)', (kind) => {
  it('a rewind to before the turn takes back what the callbacks wrote to state', async () => {
    const write =
      (key: string) =>
      (context: CallbackContext | ToolContext): undefined => {
        context.state.set(key, ((context.state.get(key) as number | undefined) ?? 0) + 1);
        return undefined;
      };
    const agent = new LlmAgent({
      name: 'helper',
      model: callingModel('noop'),
      tools: [new FunctionTool({ name: 'noop', description: 'Nothing', execute: () => 'ok' })],
      beforeAgentCallback: write('before_agent'),
      afterAgentCallback: write('after_agent'),
      beforeModelCallback: ({ context }) => write('model')(context),
      beforeToolCallback: ({ context }) => write('tool')(context),
    });
    services = kind.open();
    const session = await openRunnerSession(services, agent);
    await session.run('first');
    const afterFirst = (await session.read()).state;
    expect(afterFirst).toEqual({ before_agent: 1, after_agent: 1, model: 2, tool: 1 });
    const second = await session.run('second');
    expect((await session.read()).state).toEqual({
      before_agent: 2,
      after_agent: 2,
      model: 4,
      tool: 2,
    });
    await session.rewind(second[0]!.invocationId);
    expect((await session.read()).state).toEqual(afterFirst);
  });
});

/** An agent whose tool asks for confirmation, with every callback logging what it saw. */
function publishAgent(log: string[]) {
  const publish = new FunctionTool<{ title: string }>({
    name: 'publish',
    description: 'Publishes a post',
    parameters: { type: 'object', properties: { title: { type: 'string' } } },
    requireConfirmation: true,
    execute: ({ title }) => {
      log.push(`publish ${title}`);
      return { published: title };
    },
  });
  return new LlmAgent({
    name: 'editor',
    model: callingModel('publish', { title: 'News' }),
    tools: [publish],
    beforeAgentCallback: (context) => {
      log.push('before agent');
      context.state.set('started', true);
      return undefined;
    },
    afterAgentCallback: () => {
      log.push('after agent');
      return said('Done.');
    },
    beforeToolCallback: ({ context }) => {
      const answer = context.toolConfirmation;
      log.push(`before tool (${answer ? `confirmed: ${answer.confirmed}` : 'not asked yet'})`);
      return undefined;
    },
    afterToolCallback: ({ response }) => {
      log.push(`after tool ${JSON.stringify(response)}`);
      return { ...response, audited: true };
    },
  });
}

const approve = (requestId: string): Content => ({
  role: 'user',
  parts: [
    {
      functionResponse: {
        id: requestId,
        name: 'adk_request_confirmation',
        response: { confirmed: true },
      },
    },
  ],
});

describe('callbacks and a tool confirmation, paused and resumed', () => {
  it('pauses as without callbacks, and the resumed call runs through them once', async () => {
    const log: string[] = [];
    const ctx: RunnerSession = await open(publishAgent(log), true);
    const paused = await ctx.run('publish it');
    expect(describeEvents(paused)).toEqual([
      'editor: (nothing)',
      'editor: call publish',
      'editor: call adk_request_confirmation',
      'editor: response publish',
    ]);
    // Still waiting: the after callbacks leave the placeholder answer alone.
    expect(paused[3]!.content!.parts[0]!.functionResponse!.response).toEqual({
      error: 'This tool call requires confirmation, please approve or reject.',
    });
    expect(log).toEqual(['before agent', 'before tool (not asked yet)']);

    const requestId = paused[2]!.content!.parts[0]!.functionCall!.id!;
    const resumed = await collect(
      ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, newMessage: approve(requestId) }),
    );
    expect(log).toEqual([
      'before agent',
      'before tool (not asked yet)',
      // Resumed: the agent had started, so its before callbacks do not run again.
      'before tool (confirmed: true)',
      'publish News',
      'after tool {"published":"News"}',
      'after agent',
    ]);
    expect(describeEvents(resumed)).toEqual([
      'editor: response publish',
      'editor: "result: {\\"published\\":\\"News\\",\\"audited\\":true}"',
      // The closing content and the end of the agent's run, in one event.
      'editor: end "Done."',
    ]);
    expect((await ctx.read()).state).toEqual({ started: true });
  });
});

describe('agent callbacks in a resumable run', () => {
  it('a skipped agent’s answer marks its end: the resumed run runs neither it nor its callbacks', async () => {
    const log: string[] = [];
    let modelCalls = 0;
    const skipped = new LlmAgent({
      name: 'skipped',
      model: new ScriptedModel(() => {
        modelCalls++;
        return 'ran';
      }),
      beforeAgentCallback: () => {
        log.push('skipping');
        return said('Skipped.');
      },
      afterAgentCallback: () => {
        log.push('after skipped');
        return undefined;
      },
    });
    const ctx = await open(
      new SequentialAgent({ name: 'seq', subAgents: [skipped, publishAgent(log)] }),
      true,
    );
    const paused = await ctx.run('go');
    expect(describeEvents(paused)).toEqual([
      'seq: state {"current_sub_agent":"skipped"}',
      'skipped: end "Skipped."',
      'seq: state {"current_sub_agent":"editor"}',
      'editor: (nothing)',
      'editor: call publish',
      'editor: call adk_request_confirmation',
      'editor: response publish',
    ]);
    const requestId = paused[5]!.content!.parts[0]!.functionCall!.id!;
    const resumed = await collect(
      ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, newMessage: approve(requestId) }),
    );
    expect(describeEvents(resumed)).toEqual([
      'editor: response publish',
      'editor: "result: {\\"published\\":\\"News\\",\\"audited\\":true}"',
      'editor: end "Done."',
      'seq: end',
    ]);
    expect(modelCalls).toBe(0);
    expect(log.filter((line) => line.includes('skip'))).toEqual(['skipping']);
  });
});
