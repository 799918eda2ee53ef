// Sequential, Loop and Parallel agents, custom agents, transfer, and temp: state across agents.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseAgent,
  FunctionTool,
  InvocationContext,
  LlmAgent,
  LoopAgent,
  ParallelAgent,
  Runner,
  ScriptedModel,
  SequentialAgent,
  functionCallResponse,
  textOf,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { deferred, userMessage } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'app';

/** An LlmAgent that always says the same thing (and records what it was asked). */
function parrot(
  name: string,
  say: string,
  extra: Partial<ConstructorParameters<typeof LlmAgent>[0]> = {},
) {
  const model = new ScriptedModel(() => say);
  return { agent: new LlmAgent({ name, model, ...extra }), model };
}

describe.each(serviceKinds)('workflow agents ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: BaseAgent) {
    services = kind.open();
    return openRunnerSession(services, agent);
  }

  it('SequentialAgent runs its sub-agents in order, each seeing what the others said', async () => {
    const a = parrot('writer', 'A draft.', { outputKey: 'draft' });
    const b = parrot('editor', 'An edit.', { instruction: 'Edit this: {draft}' });
    const { run, read } = await setUp(
      new SequentialAgent({ name: 'pipeline', subAgents: [a.agent, b.agent] }),
    );
    const events = await run('write');
    expect(events.map((e) => [e.author, textOf(e.content)])).toEqual([
      ['writer', 'A draft.'],
      ['editor', 'An edit.'],
    ]);
    expect(b.model.requests[0]!.systemInstruction).toContain('Edit this: A draft.');
    expect(b.model.requests[0]!.contents.map((c) => c.parts.map((p) => p.text))).toEqual([
      ['write'],
      ['For context:', '[writer] said: A draft.'],
    ]);
    expect((await read()).state).toEqual({ draft: 'A draft.' });
  });

  it('LoopAgent repeats up to maxIterations', async () => {
    const step = parrot('step', 'again');
    const { run } = await setUp(
      new LoopAgent({ name: 'loop', subAgents: [step.agent], maxIterations: 3 }),
    );
    expect((await run('go')).map((e) => e.author)).toEqual(['step', 'step', 'step']);
  });

  it('LoopAgent stops after the sub-agent that escalates finishes', async () => {
    let round = 0;
    const exitLoop = new FunctionTool({
      name: 'exit_loop',
      description: 'Ends the loop',
      execute: (_, ctx) => {
        ctx.actions.escalate = true;
        ctx.actions.skipSummarization = true;
        return {};
      },
    });
    const critic = new LlmAgent({
      name: 'critic',
      model: new ScriptedModel(() =>
        ++round < 2 ? 'needs work' : functionCallResponse(['exit_loop', {}]),
      ),
      tools: [exitLoop],
    });
    const reviser = parrot('reviser', 'revised');
    const { run } = await setUp(
      new LoopAgent({ name: 'loop', subAgents: [critic, reviser.agent], maxIterations: 10 }),
    );
    const events = await run('go');
    expect(
      events.map(
        (e) =>
          `${e.author}:${e.content?.parts[0]?.functionCall?.name ?? e.content?.parts[0]?.functionResponse?.name ?? textOf(e.content)}`,
      ),
    ).toEqual(['critic:needs work', 'reviser:revised', 'critic:exit_loop', 'critic:exit_loop']);
  });

  it('ParallelAgent runs its sub-agents concurrently, each on its own branch', async () => {
    const fastDone = deferred();
    const slow = new LlmAgent({
      name: 'slow',
      model: new ScriptedModel(async () => {
        await fastDone.promise; // would deadlock if the branches ran one after the other
        return 'slow answer';
      }),
    });
    const fast = new LlmAgent({
      name: 'fast',
      model: new ScriptedModel(() => {
        fastDone.resolve();
        return 'fast answer';
      }),
    });
    const summary = parrot('summary', 'both answered');
    const root = new SequentialAgent({
      name: 'root',
      subAgents: [new ParallelAgent({ name: 'fanout', subAgents: [slow, fast] }), summary.agent],
    });
    const { run } = await setUp(root);
    const events = await run('go');
    expect(events.map((e) => [e.author, e.branch])).toEqual([
      ['fast', 'fanout.fast'],
      ['slow', 'fanout.slow'],
      ['summary', undefined],
    ]);
    // Each branch saw only the shared history; the agent after them saw both.
    const slowRequest = (slow.model as ScriptedModel).requests[0]!;
    expect(slowRequest.contents).toEqual([userMessage('go')]);
    const seen = summary.model.requests[0]!.contents.flatMap((c) => c.parts.map((p) => p.text));
    expect(seen).toContain('[fast] said: fast answer');
    expect(seen).toContain('[slow] said: slow answer');
  });

  it('ParallelAgent lets each branch see its own earlier events, never its sibling’s', async () => {
    const seenBy: Record<string, LlmRequest[]> = {};
    const twoStep = (name: string) => {
      const tool = new FunctionTool({
        name: `${name}_tool`,
        description: 'x',
        execute: () => ({ from: name }),
      });
      const model = new ScriptedModel((request, i) => {
        (seenBy[name] ??= []).push(request);
        return i === 0 ? functionCallResponse([`${name}_tool`, {}]) : `${name} done`;
      });
      return new LlmAgent({ name, model, tools: [tool] });
    };
    const { run } = await setUp(
      new ParallelAgent({ name: 'par', subAgents: [twoStep('left'), twoStep('right')] }),
    );
    await run('go');
    const secondLeft = seenBy.left![1]!.contents;
    expect(
      secondLeft.map(
        (c) =>
          c.parts[0]!.functionCall?.name ?? c.parts[0]!.functionResponse?.name ?? c.parts[0]!.text,
      ),
    ).toEqual(['go', 'left_tool', 'left_tool']);
  });

  it('a custom BaseAgent yields its own events, stored like any other', async () => {
    class Counter extends BaseAgent {
      protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        const count = ((ctx.session.state.count as number | undefined) ?? 0) + 1;
        yield ctx.createEvent({
          content: { role: 'model', parts: [{ text: `count is ${count}` }] },
          actions: { stateDelta: { count } },
        });
      }
    }
    const { run, read } = await setUp(new Counter({ name: 'counter' }));
    await run('one');
    const events = await run('two');
    expect(textOf(events[0]!.content)).toBe('count is 2');
    expect((await read()).state).toEqual({ count: 2 });
  });

  it('shows temp: state to later agents of the same invocation, and never stores it', async () => {
    const first = parrot('first', 'scratch value', { outputKey: 'temp:scratch' });
    const second = new LlmAgent({
      name: 'second',
      model: new ScriptedModel(() => 'ok'),
      instruction: 'Use {temp:scratch?}',
    });
    const { run, read } = await setUp(
      new SequentialAgent({ name: 'seq', subAgents: [first.agent, second] }),
    );
    await run('go');
    expect((second.model as ScriptedModel).requests[0]!.systemInstruction).toContain(
      'Use scratch value',
    );
    const session = await read();
    expect(session.state).toEqual({});
    expect(session.events.every((e) => !('temp:scratch' in e.actions.stateDelta))).toBe(true);
    await run('again');
    expect((second.model as ScriptedModel).requests[1]!.systemInstruction).toContain(
      'Use scratch value',
    );
  });

  it('transfers to a sub-agent within the turn, and the next turn starts there', async () => {
    const billing = new LlmAgent({
      name: 'billing',
      description: 'Answers billing questions',
      model: new ScriptedModel(['Your invoice is paid.', 'Anything else about billing?']),
    });
    const rootModel = new ScriptedModel([
      functionCallResponse(['transfer_to_agent', { agent_name: 'billing' }]),
    ]);
    const root = new LlmAgent({ name: 'root', model: rootModel, subAgents: [billing] });
    const { run } = await setUp(root);
    const first = await run('Is my invoice paid?');
    expect(first.map((e) => e.author)).toEqual(['root', 'root', 'billing']);
    expect(first[1]!.actions.transferToAgent).toBe('billing');
    expect(rootModel.requests[0]!.tools!.map((t) => t.name)).toEqual(['transfer_to_agent']);
    expect(rootModel.requests[0]!.systemInstruction).toContain('Agent name: billing');
    const second = await run('Thanks!');
    expect(second.map((e) => e.author)).toEqual(['billing']);
    expect(rootModel.requests).toHaveLength(1);
  });

  it('refuses a transfer to an agent that does not exist, and the model is told why', async () => {
    const helper = parrot('helper', 'hi');
    const rootModel = new ScriptedModel([
      functionCallResponse(['transfer_to_agent', { agent_name: 'ghost' }]),
      'I will answer myself.',
    ]);
    const { run } = await setUp(
      new LlmAgent({ name: 'root', model: rootModel, subAgents: [helper.agent] }),
    );
    const events = await run('go');
    expect(events.map((e) => e.author)).toEqual(['root', 'root', 'root']);
    expect(events[1]!.content!.parts[0]!.functionResponse!.response.error).toMatch(
      /args.agent_name should be one of "helper"/,
    );
    expect(events[1]!.actions.transferToAgent).toBeUndefined();
  });

  it('lets a sub-agent transfer back to its parent', async () => {
    const child = new LlmAgent({
      name: 'child',
      model: new ScriptedModel([
        functionCallResponse(['transfer_to_agent', { agent_name: 'root' }]),
      ]),
    });
    const rootModel = new ScriptedModel([
      functionCallResponse(['transfer_to_agent', { agent_name: 'child' }]),
      'root again',
    ]);
    const { run } = await setUp(
      new LlmAgent({ name: 'root', model: rootModel, subAgents: [child] }),
    );
    const events = await run('go');
    expect(events.map((e) => e.author)).toEqual(['root', 'root', 'child', 'child', 'root']);
    expect(textOf(events.at(-1)!.content)).toBe('root again');
  });

  it('starts the next turn at the root when the last agent sits under a workflow agent', async () => {
    const step = parrot('step', 'stepped');
    const { run } = await setUp(new SequentialAgent({ name: 'seq', subAgents: [step.agent] }));
    await run('one');
    expect((await run('two')).map((e) => e.author)).toEqual(['step']);
  });
});

describe('Runner validation', () => {
  it('refuses two agents with the same name in one tree', () => {
    const a = parrot('same', 'x').agent;
    const b = parrot('same', 'y').agent;
    expect(
      () =>
        new Runner({
          appName,
          agent: new SequentialAgent({ name: 'root', subAgents: [a, b] }),
          sessionService: null as never,
        }),
    ).toThrow(/Two agents are named same/);
  });

  it('refuses an agent with two parents, and names that are not identifiers', () => {
    const shared = parrot('shared', 'x').agent;
    new SequentialAgent({ name: 'one', subAgents: [shared] });
    expect(() => new SequentialAgent({ name: 'two', subAgents: [shared] })).toThrow(
      /already has the parent one/,
    );
    expect(() => parrot('has space', 'x')).toThrow(/must be an identifier/);
    expect(() => parrot('user', 'x')).toThrow(/cannot be named 'user'/);
  });
});
