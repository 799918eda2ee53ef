// Resume: checkpoints as events, and interrupted invocations that continue where they stopped
// (ADK's pause/resume cases, written against this API).

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseAgent,
  FunctionTool,
  InvocationContext,
  LlmAgent,
  LongRunningFunctionTool,
  LoopAgent,
  ParallelAgent,
  ScriptedModel,
  SequentialAgent,
  functionCallResponse,
  textOf,
  type Content,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import { describeEvents } from '../../support/describe-events.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

/** A long-running tool: it answers "pending" at once; the real answer comes from the user. */
const ask = () =>
  new LongRunningFunctionTool({
    name: 'ask',
    description: 'Asks a person',
    execute: () => ({ status: 'pending' }),
  });

/** A model that calls `ask` on its first request, then says `done` (with what it was told). */
function askThenSay(done: string) {
  return new ScriptedModel((request: LlmRequest) => {
    const last = request.contents.at(-1)!;
    const response = last.parts[0]?.functionResponse;
    if (response) return `${done} (${JSON.stringify(response.response)})`;
    return functionCallResponse(['ask', {}]);
  });
}

const say = (name: string, text: string) =>
  new LlmAgent({ name, model: new ScriptedModel(() => text) });

function answer(callId: string, response: Record<string, unknown>, name = 'ask'): Content {
  return { role: 'user', parts: [{ functionResponse: { id: callId, name, response } }] };
}

/** The id of the pending call the run paused on. */
const pausedCallId = (events: readonly Event[]) =>
  events.find((e) => e.longRunningToolIds?.length)!.longRunningToolIds![0]!;

/** Reads a run until `count` events came, then stops reading (the consumer walks away). */
async function readThenStop(stream: AsyncGenerator<Event, void>, count: number): Promise<Event[]> {
  const events: Event[] = [];
  for await (const event of stream) {
    events.push(event);
    if (events.length === count) break;
  }
  return events;
}

describe.each(serviceKinds)('resume ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  async function setUp(agent: BaseAgent): Promise<RunnerSession> {
    services = kind.open();
    return openRunnerSession(services, agent, { resumable: true });
  }

  const resumeWith = (ctx: RunnerSession, newMessage?: Content, invocationId?: string) =>
    collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        ...(newMessage ? { newMessage } : {}),
        ...(invocationId ? { invocationId } : {}),
      }),
    );

  it('Sequential: the first child pauses; the answer resumes it, then the rest runs', async () => {
    const ctx = await setUp(
      new SequentialAgent({
        name: 'root',
        subAgents: [
          new LlmAgent({ name: 'sub1', model: askThenSay('sub1 done'), tools: [ask()] }),
          say('sub2', 'sub2 done'),
        ],
      }),
    );
    const first = await ctx.run('go');
    expect(describeEvents(first)).toEqual([
      'root: state {"current_sub_agent":"sub1"}',
      'sub1: call ask',
      'sub1: response ask',
    ]);
    const resumed = await resumeWith(ctx, answer(pausedCallId(first), { answer: 42 }));
    expect(describeEvents(resumed)).toEqual([
      'sub1: "sub1 done ({\\"answer\\":42})"',
      'sub1: end',
      'root: state {"current_sub_agent":"sub2"}',
      'sub2: "sub2 done"',
      'sub2: end',
      'root: end',
    ]);
    const invocationId = first[0]!.invocationId;
    expect(resumed.every((e) => e.invocationId === invocationId)).toBe(true);
  });

  it('Sequential: the second child pauses, and resuming does not run the first again', async () => {
    const sub1 = say('sub1', 'sub1 done');
    const ctx = await setUp(
      new SequentialAgent({
        name: 'root',
        subAgents: [
          sub1,
          new LlmAgent({ name: 'sub2', model: askThenSay('sub2 done'), tools: [ask()] }),
        ],
      }),
    );
    const first = await ctx.run('go');
    expect(describeEvents(first)).toEqual([
      'root: state {"current_sub_agent":"sub1"}',
      'sub1: "sub1 done"',
      'sub1: end',
      'root: state {"current_sub_agent":"sub2"}',
      'sub2: call ask',
      'sub2: response ask',
    ]);
    const resumed = await resumeWith(ctx, answer(pausedCallId(first), { ok: true }));
    expect(describeEvents(resumed)).toEqual([
      'sub2: "sub2 done ({\\"ok\\":true})"',
      'sub2: end',
      'root: end',
    ]);
    expect((sub1.model as ScriptedModel).requests).toHaveLength(1);
  });

  it('Parallel: siblings still finish; resuming runs only the branch that paused', async () => {
    const fast = say('fast', 'fast done');
    const ctx = await setUp(
      new ParallelAgent({
        name: 'par',
        subAgents: [
          new LlmAgent({ name: 'asker', model: askThenSay('asker done'), tools: [ask()] }),
          fast,
        ],
      }),
    );
    const first = await ctx.run('go');
    expect(describeEvents(first).sort()).toEqual(
      [
        'par: state {}',
        'asker: call ask',
        'asker: response ask',
        'fast: "fast done"',
        'fast: end',
      ].sort(),
    );
    expect(describeEvents(first)).not.toContain('par: end');
    const resumed = await resumeWith(ctx, answer(pausedCallId(first), { v: 1 }));
    expect(describeEvents(resumed)).toEqual([
      'asker: "asker done ({\\"v\\":1})"',
      'asker: end',
      'par: end',
    ]);
    expect((fast.model as ScriptedModel).requests).toHaveLength(1);
    // The answer went on the branch of the call, so the sibling never saw it.
    const stored = (await ctx.read()).events;
    expect(
      stored.find((e) => e.author === 'user' && e.content?.parts[0]?.functionResponse)?.branch,
    ).toBe('par.asker');
  });

  it('Loop: resumes at the sub-agent and the iteration it stopped in', async () => {
    let calls = 0;
    const worker = new LlmAgent({
      name: 'worker',
      tools: [ask()],
      model: new ScriptedModel((request) => {
        calls++;
        const last = request.contents.at(-1)!;
        if (calls === 1) return functionCallResponse(['ask', {}]);
        return last.parts[0]?.functionResponse ? 'answered' : `pass ${calls}`;
      }),
    });
    const ctx = await setUp(
      new LoopAgent({ name: 'loop', subAgents: [worker, say('note', 'noted')], maxIterations: 2 }),
    );
    const first = await ctx.run('go');
    expect(describeEvents(first)).toEqual([
      'loop: state {"current_sub_agent":"worker","times_looped":0}',
      'worker: call ask',
      'worker: response ask',
    ]);
    const resumed = await resumeWith(ctx, answer(pausedCallId(first), {}));
    expect(describeEvents(resumed)).toEqual([
      'worker: "answered"',
      'worker: end',
      'loop: state {"current_sub_agent":"note","times_looped":0}',
      'note: "noted"',
      'note: end',
      'loop: state {"current_sub_agent":"worker","times_looped":1}',
      'worker: "pass 3"',
      'worker: end',
      'loop: state {"current_sub_agent":"note","times_looped":1}',
      'note: "noted"',
      'note: end',
      'loop: end',
    ]);
  });

  it('a transfer chain resumes in the agent it was transferred to', async () => {
    const helper = new LlmAgent({
      name: 'helper',
      model: askThenSay('helper done'),
      tools: [ask()],
    });
    const root = new LlmAgent({
      name: 'root',
      model: new ScriptedModel([
        functionCallResponse(['transfer_to_agent', { agent_name: 'helper' }]),
      ]),
      subAgents: [helper],
    });
    const ctx = await setUp(root);
    const first = await ctx.run('go');
    expect(describeEvents(first)).toEqual([
      'root: call transfer_to_agent',
      'root: response transfer_to_agent → helper',
      'helper: call ask',
      'helper: response ask',
    ]);
    const resumed = await resumeWith(ctx, answer(pausedCallId(first), { x: 1 }));
    expect(describeEvents(resumed)).toEqual([
      'helper: "helper done ({\\"x\\":1})"',
      'helper: end',
      'root: end',
    ]);
  });

  describe('after the consumer stopped reading', () => {
    function toolAgent() {
      let runs = 0;
      const tool = new FunctionTool({
        name: 'work',
        description: 'Works',
        execute: () => ({ runs: ++runs }),
      });
      const model = new ScriptedModel((request) =>
        request.contents.at(-1)!.parts[0]?.functionResponse
          ? 'final'
          : functionCallResponse(['work', {}]),
      );
      return {
        agent: new LlmAgent({ name: 'agent', model, tools: [tool] }),
        runs: () => runs,
        model,
      };
    }

    it.each([
      [
        'the model’s call (the tool never ran): runs the tool, then the model',
        1,
        ['agent: response work', 'agent: "final"', 'agent: end'],
        1,
      ],
      ['the tool’s answer: calls the model again', 2, ['agent: "final"', 'agent: end'], 1],
      ['the final answer: only marks the agent finished', 3, ['agent: end'], 1],
    ])('resumes from %s', async (_, stopAfter, expected, toolRuns) => {
      const { agent, runs } = toolAgent();
      const ctx = await setUp(agent);
      const stream = ctx.stream('go');
      const seen = await readThenStop(stream, stopAfter);
      const resumed = await resumeWith(ctx, undefined, seen[0]!.invocationId);
      expect(describeEvents(resumed)).toEqual(expected);
      expect(runs()).toBe(toolRuns);
      const ids = (await ctx.read()).events.map((e) => e.id);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('resumes from a transfer call: the transfer runs, then the target', async () => {
      const helper = say('helper', 'helper here');
      const root = new LlmAgent({
        name: 'root',
        model: new ScriptedModel([
          functionCallResponse(['transfer_to_agent', { agent_name: 'helper' }]),
        ]),
        subAgents: [helper],
      });
      const ctx = await setUp(root);
      const stream = ctx.stream('go');
      const [call] = await readThenStop(stream, 1);
      const resumed = await resumeWith(ctx, undefined, call!.invocationId);
      expect(describeEvents(resumed)).toEqual([
        'root: response transfer_to_agent → helper',
        'helper: "helper here"',
        'helper: end',
        'root: end',
      ]);
    });

    it('never runs a call another agent made', async () => {
      let runs = 0;
      const work = () =>
        new FunctionTool({ name: 'work', description: 'x', execute: () => ({ runs: ++runs }) });
      const caller = (name: string) =>
        new LlmAgent({
          name,
          tools: [work()],
          model: new ScriptedModel((request) =>
            request.contents.at(-1)!.parts[0]?.functionResponse
              ? `${name} done`
              : functionCallResponse(['work', {}]),
          ),
        });
      const ctx = await setUp(
        new SequentialAgent({ name: 'root', subAgents: [caller('first'), caller('second')] }),
      );
      const stream = ctx.stream('go');
      const seen = await readThenStop(stream, 2); // root's checkpoint, then first's call
      expect(describeEvents(seen)).toEqual([
        'root: state {"current_sub_agent":"first"}',
        'first: call work',
      ]);
      const resumed = await resumeWith(ctx, undefined, seen[0]!.invocationId);
      expect(describeEvents(resumed).filter((d) => d.includes('response work'))).toEqual([
        'first: response work',
        'second: response work',
      ]);
      expect(runs).toBe(2);
    });
  });

  it('a custom agent resumes by steps with loadAgentState and createAgentStateEvent', async () => {
    class Steps extends BaseAgent {
      protected override async *runAsyncImpl(ctx: InvocationContext): AsyncGenerator<Event, void> {
        const from = this.loadAgentState<{ step: number }>(ctx)?.step ?? 0;
        for (let step = from; step < 3; step++) {
          yield ctx.createEvent({ content: { role: 'model', parts: [{ text: `step ${step}` }] } });
          yield this.createAgentStateEvent(ctx, { state: { step: step + 1 } });
        }
        yield this.createAgentStateEvent(ctx, { endOfAgent: true });
      }
    }
    const ctx = await setUp(new Steps({ name: 'steps' }));
    const stream = ctx.stream('go');
    const seen = await readThenStop(stream, 4);
    expect(describeEvents(seen)).toEqual([
      'steps: "step 0"',
      'steps: state {"step":1}',
      'steps: "step 1"',
      'steps: state {"step":2}',
    ]);
    const resumed = await resumeWith(ctx, undefined, seen[0]!.invocationId);
    expect(describeEvents(resumed)).toEqual([
      'steps: "step 2"',
      'steps: state {"step":3}',
      'steps: end',
    ]);
  });

  it('stays paused until every awaited call is answered', async () => {
    const model = new ScriptedModel((request) => {
      const responses = request.contents.at(-1)!.parts.filter((p) => p.functionResponse);
      if (responses.length === 0)
        return functionCallResponse(['ask', { who: 'a' }], ['ask', { who: 'b' }]);
      return `got ${responses.map((p) => JSON.stringify(p.functionResponse!.response)).join(' and ')}`;
    });
    const ctx = await setUp(new LlmAgent({ name: 'agent', model, tools: [ask()] }));
    const first = await ctx.run('go');
    const [a, b] = first[0]!.longRunningToolIds!;
    expect(await resumeWith(ctx, answer(a!, { from: 'a' }))).toEqual([]);
    expect(model.requests).toHaveLength(1);
    const resumed = await resumeWith(ctx, answer(b!, { from: 'b' }));
    expect(describeEvents(resumed)).toEqual([
      'agent: "got {\\"from\\":\\"a\\"} and {\\"from\\":\\"b\\"}"',
      'agent: end',
    ]);
  });

  it('resumes an older paused invocation, not only the latest', async () => {
    const model = new ScriptedModel((request) => {
      const last = request.contents.at(-1)!;
      if (last.parts[0]?.functionResponse) return 'ticket answered';
      return textOf(last) === 'open a ticket'
        ? functionCallResponse(['ask', {}])
        : `echo ${textOf(last)}`;
    });
    const ctx = await setUp(new LlmAgent({ name: 'agent', model, tools: [ask()] }));
    const paused = await ctx.run('open a ticket');
    const later = await ctx.run('meanwhile');
    expect(describeEvents(later)).toEqual(['agent: "echo meanwhile"', 'agent: end']);
    const resumed = await resumeWith(ctx, answer(pausedCallId(paused), { ticket: 7 }));
    expect(describeEvents(resumed)).toEqual(['agent: "ticket answered"', 'agent: end']);
    expect(resumed[0]!.invocationId).toBe(paused[0]!.invocationId);
  });

  it('yields nothing for a finished invocation, and writes nothing', async () => {
    const ctx = await setUp(say('agent', 'hi'));
    const done = await ctx.run('hello');
    const before = await ctx.read();
    expect(await resumeWith(ctx, undefined, done[0]!.invocationId)).toEqual([]);
    expect(
      await resumeWith(ctx, { role: 'user', parts: [{ text: 'late' }] }, done[0]!.invocationId),
    ).toEqual([]);
    expect(await ctx.read()).toEqual(before);
  });

  it('rejects an unknown invocation and a rewound one', async () => {
    const ctx = await setUp(
      new LlmAgent({ name: 'agent', model: askThenSay('x'), tools: [ask()] }),
    );
    expect((await rejectionOf(resumeWith(ctx, undefined, 'e-unknown'))).name).toBe(
      'InvocationNotFoundError',
    );
    const paused = await ctx.run('go');
    await ctx.rewind(paused[0]!.invocationId);
    const rewound = await rejectionOf(resumeWith(ctx, undefined, paused[0]!.invocationId));
    expect(rewound.name).toBe('InvalidRequestError');
    expect(rewound.message).toMatch(/rewound/);
  });
});

describe.each(serviceKinds)('a user’s function response without resumability ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  it('goes to the agent that made the call, root or sub-agent, in a new invocation', async () => {
    services = kind.open();
    const helper = new LlmAgent({
      name: 'helper',
      model: askThenSay('helper got it'),
      tools: [ask()],
    });
    const root = new LlmAgent({
      name: 'root',
      model: new ScriptedModel(() =>
        functionCallResponse(['transfer_to_agent', { agent_name: 'helper' }]),
      ),
      subAgents: [helper],
    });
    const ctx = await openRunnerSession(services, root);
    const first = await ctx.run('go');
    expect(describeEvents(first).at(-1)).toBe('helper: response ask');
    const next = await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: answer(pausedCallId(first), { y: 2 }),
      }),
    );
    expect(describeEvents(next)).toEqual(['helper: "helper got it ({\\"y\\":2})"']);
    expect(next[0]!.invocationId).not.toBe(first[0]!.invocationId);
  });
});
