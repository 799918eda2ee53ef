// Time travel: rewind a finished (or interrupted) invocation to just after one of its
// checkpoints, then resume it from there. What came after the checkpoint runs again; what came
// before it does not.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseAgent,
  InvocationContext,
  LlmAgent,
  ScriptedModel,
  SequentialAgent,
  activeEvents,
  textOf,
  type Event,
} from '../../../src/index.ts';
import { describeEvents } from '../../support/describe-events.ts';
import { collect } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

/** Three steps, each a message that records its step in state, then a checkpoint. */
class Steps extends BaseAgent {
  protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
    const from = this.loadAgentState<{ step: number }>(ctx)?.step ?? 0;
    for (let step = from; step < 3; step++) {
      yield ctx.createEvent({
        content: { role: 'model', parts: [{ text: `step ${step}` }] },
        actions: { stateDelta: { [`done${step}`]: true } },
      });
      yield this.createAgentStateEvent(ctx, { state: { step: step + 1 } });
    }
    yield this.createAgentStateEvent(ctx, { endOfAgent: true });
  }
}

/** A model that numbers its answers, so that a second run of its agent shows. */
function countingModel(name: string) {
  let calls = 0;
  return new ScriptedModel(() => `${name} answer ${++calls}`);
}

describe.each(serviceKinds)('resume after a rewind to a checkpoint ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: BaseAgent): Promise<RunnerSession> {
    services = kind.open();
    return openRunnerSession(services, agent, { resumable: true });
  }

  const rewindAfter = (ctx: RunnerSession, event: Event) =>
    ctx.runner.rewindAsync({ userId, sessionId: ctx.sessionId, rewindAfterEventId: event.id });
  const resume = (ctx: RunnerSession, invocationId: string) =>
    collect(ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId }));

  it('Sequential: back to the checkpoint before the second sub-agent, which runs again', async () => {
    const first = new LlmAgent({ name: 'first', model: countingModel('first'), outputKey: 'one' });
    const second = new LlmAgent({
      name: 'second',
      model: countingModel('second'),
      outputKey: 'two',
    });
    const ctx = await setUp(new SequentialAgent({ name: 'root', subAgents: [first, second] }));
    const run = await ctx.run('go');
    expect(describeEvents(run)).toEqual([
      'root: state {"current_sub_agent":"first"}',
      'first: "first answer 1"',
      'first: end',
      'root: state {"current_sub_agent":"second"}',
      'second: "second answer 1"',
      'second: end',
      'root: end',
    ]);
    const invocationId = run[0]!.invocationId;

    await rewindAfter(ctx, run[3]!);
    const rewound = await ctx.read();
    expect(rewound.state).toEqual({ one: 'first answer 1' });
    expect(describeEvents(activeEvents(rewound.events)).slice(-2)).toEqual([
      'first: end',
      'root: state {"current_sub_agent":"second"}',
    ]);
    // The invocation finished, so no run of it is in flight: it is not listed as interrupted.
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toEqual([]);

    const resumed = await resume(ctx, invocationId);
    expect(describeEvents(resumed)).toEqual([
      'second: "second answer 2"',
      'second: end',
      'root: end',
    ]);
    expect(resumed.every((e) => e.invocationId === invocationId)).toBe(true);
    expect((first.model as ScriptedModel).requests).toHaveLength(1);
    const requests = (second.model as ScriptedModel).requests;
    expect(requests).toHaveLength(2);
    // The second sub-agent's first answer was rewound: the model does not see it again.
    expect(requests[1]!.contents.map((c) => textOf(c)).join(' ')).not.toContain('second answer 1');
    expect((await ctx.read()).state).toEqual({ one: 'first answer 1', two: 'second answer 2' });
    // Finished again: resuming once more yields nothing.
    expect(await resume(ctx, invocationId)).toEqual([]);
  });

  it('a custom agent resumes from the checkpoint it was rewound to, and its state follows', async () => {
    const ctx = await setUp(new Steps({ name: 'steps' }));
    const run = await ctx.run('go');
    expect(describeEvents(run)).toHaveLength(7);
    const checkpoint = run.find((e) => e.actions.agentState?.step === 1)!;
    await rewindAfter(ctx, checkpoint);
    expect((await ctx.read()).state).toEqual({ done0: true });

    const resumed = await resume(ctx, run[0]!.invocationId);
    expect(describeEvents(resumed)).toEqual([
      'steps: "step 1"',
      'steps: state {"step":2}',
      'steps: "step 2"',
      'steps: state {"step":3}',
      'steps: end',
    ]);
    expect((await ctx.read()).state).toEqual({ done0: true, done1: true, done2: true });
  });

  it('an interrupted run rewound to an earlier checkpoint stays listed, and resumes from there', async () => {
    const ctx = await setUp(new Steps({ name: 'steps' }));
    const seen: Event[] = [];
    for await (const event of ctx.stream('go')) {
      seen.push(event);
      if (seen.length === 4) break; // step 0, checkpoint 1, step 1, checkpoint 2
    }
    const invocationId = seen[0]!.invocationId;
    await rewindAfter(ctx, seen[1]!);
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toMatchObject([
      { invocationId, status: 'interrupted' },
    ]);
    const resumed = await resume(ctx, invocationId);
    expect(describeEvents(resumed).slice(0, 2)).toEqual([
      'steps: "step 1"',
      'steps: state {"step":2}',
    ]);
    expect(describeEvents(resumed).at(-1)).toBe('steps: end');
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toEqual([]);
  });
});
