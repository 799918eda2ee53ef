// Agents and tools as workflow nodes that wait for a human: a tool that asks for confirmation, a
// long-running tool. The workflow pauses with the node; the answer, given to a new runner over the
// same IndexedDB (a reload), goes on inside the node where it stopped (the tool runs once, the
// model sees its call and answer) and then along the graph. Nothing that finished runs again.
//
// @google/adk 2.0.0 does not do this (checked: an LlmAgent node whose tool asks for confirmation
// asks again, for ever, after the answer; a long-running call runs the whole workflow again from
// START with the answer as its input), so this is tested on Trellis alone.

import { afterEach, describe, expect, it } from 'vitest';
import {
  BaseLlm,
  FunctionTool,
  LlmAgent,
  LongRunningFunctionTool,
  RequestInput,
  Workflow,
  type Content,
  type Event,
  type LlmRequest,
  type NodeContext,
} from '../../../src/index.ts';
import { collect, freshDbName } from '../../support/helpers.ts';
import { openRunnerSession, userId } from '../../support/runner-session.ts';
import { openIndexedDb, type Services } from '../../support/service-kinds.ts';

/** What the model saw, as `role:what` items; it calls `pay` until it sees pay's answer. */
const seen: string[][] = [];
class PayingModel extends BaseLlm {
  constructor(private readonly calls = 1) {
    super('scripted');
  }
  async *generateContentAsync(request: LlmRequest) {
    seen.push(
      request.contents.map(
        (c) =>
          `${c.role}:${c.parts
            .map(
              (p) =>
                p.text ??
                (p.functionCall
                  ? `call ${p.functionCall.name}`
                  : `answer ${JSON.stringify(p.functionResponse?.response)}`),
            )
            .join(',')}`,
      ),
    );
    const answer = request.contents.at(-1)?.parts.find((p) => p.functionResponse?.name === 'pay');
    yield answer
      ? {
          content: {
            role: 'model' as const,
            parts: [{ text: `done: ${JSON.stringify(answer.functionResponse!.response)}` }],
          },
        }
      : {
          content: {
            role: 'model' as const,
            parts: Array.from({ length: this.calls }, (_, i) => ({
              functionCall: { name: 'pay', args: { amount: 5 + i } },
            })),
          },
        };
  }
}

const parameters = { type: 'object', properties: { amount: { type: 'number' } } } as const;

function payWorkflow(
  runs: Record<string, number>,
  kind: 'confirm' | 'long',
  calls = 1,
  review = false,
) {
  const count = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);
  const execute = (args: Record<string, unknown>) => {
    count('pay');
    return kind === 'confirm' ? { paid: args['amount'] } : { status: 'pending' };
  };
  const tool =
    kind === 'confirm'
      ? new FunctionTool({
          name: 'pay',
          description: 'Pays',
          parameters,
          requireConfirmation: true,
          execute,
        })
      : new LongRunningFunctionTool({ name: 'pay', description: 'Pays', parameters, execute });
  function prepare(_ctx: NodeContext, input: unknown) {
    count('prepare');
    return `Pay for ${input}`;
  }
  function after(ctx: NodeContext, input: unknown) {
    count('after');
    ctx.state.set('receipt', input);
    return `after: ${input}`;
  }
  const payer = new LlmAgent({
    name: 'payer',
    model: new PayingModel(calls),
    instruction: 'Pay.',
    tools: [tool],
  });
  function* check(_ctx: NodeContext, input: unknown) {
    count('check');
    yield new RequestInput({ message: `Keep "${input}"?`, interruptId: 'keep' });
  }
  function done(_ctx: NodeContext, input: unknown) {
    return `kept: ${JSON.stringify(input)}`;
  }
  return new Workflow({
    name: 'shop',
    edges: review
      ? [['START', prepare, payer, after, check, done]]
      : [['START', prepare, payer, after]],
  });
}

const outputs = (events: readonly Event[]) =>
  events
    .filter((e) => e.output !== undefined)
    .map((e) => `${e.author}: ${JSON.stringify(e.output)}`);

const respond = (id: string, name: string, response: Record<string, unknown>): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name, response } }],
});

/** The call the paused run waits on. */
function waitingCall(events: readonly Event[]) {
  const ids = events.flatMap((e) => e.longRunningToolIds ?? []);
  const call = events
    .flatMap((e) => e.content?.parts ?? [])
    .map((p) => p.functionCall)
    .find((c) => c?.id !== undefined && ids.includes(c.id));
  expect(call, 'a call the run waits on').toBeDefined();
  return call!;
}

describe('agent and tool nodes that wait for a human', () => {
  let services: Services;
  afterEach(() => services.close());

  async function start(kind: 'confirm' | 'long') {
    seen.length = 0;
    services = openIndexedDb(freshDbName());
    const runs: Record<string, number> = {};
    const ctx = await openRunnerSession(services, payWorkflow(runs, kind), { resumable: true });
    const paused = await ctx.run('tea');
    return { ctx, runs, paused };
  }

  /** A reload: new services over the same database, a new runner and workflow. */
  async function reload(kind: 'confirm' | 'long') {
    const restarted = await services.restart();
    services = restarted;
    const runs: Record<string, number> = {};
    const { runner } = await openRunnerSession(restarted, payWorkflow(runs, kind), {
      resumable: true,
    });
    return { runner, runs };
  }

  it('pauses on a tool that asks for confirmation; the yes, after a reload, runs it once and goes on', async () => {
    const { ctx, runs, paused } = await start('confirm');
    const call = waitingCall(paused);
    expect(call.name).toBe('adk_request_confirmation');
    expect(runs).toEqual({ prepare: 1 });
    expect(outputs(paused)).toEqual(['prepare: "Pay for tea"']);
    const [waiting] = await ctx.runner.listInterruptedInvocations({
      userId,
      sessionId: ctx.sessionId,
    });
    expect([waiting?.status, waiting?.pendingCallIds]).toEqual(['paused', [call.id]]);

    const later = await reload('confirm');
    const resumed = await collect(
      later.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: respond(call.id!, call.name, { confirmed: true }),
      }),
    );
    expect(later.runs).toEqual({ pay: 1, after: 1 });
    expect(outputs(resumed)).toEqual([
      'payer: "done: {\\"paid\\":5}"',
      'after: "after: done: {\\"paid\\":5}"',
    ]);
    // The model goes on from its own call and the tool's answer, after the node's input.
    expect(seen.at(-1)).toEqual(['user:Pay for tea', 'model:call pay', 'user:answer {"paid":5}']);
    expect(resumed.every((e) => e.invocationId === paused[0]!.invocationId)).toBe(true);
    const session = await services.sessionService.getSession({
      appName: 'app',
      userId,
      sessionId: ctx.sessionId,
    });
    expect(session!.state).toEqual({ receipt: 'done: {"paid":5}' });
    expect(
      await later.runner.listInterruptedInvocations({ userId, sessionId: ctx.sessionId }),
    ).toEqual([]);
  });

  it('a no does not run the tool; the model hears it was refused, and the workflow goes on', async () => {
    const { ctx, paused } = await start('confirm');
    const call = waitingCall(paused);
    const later = await reload('confirm');
    const resumed = await collect(
      later.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: respond(call.id!, call.name, { confirmed: false }),
      }),
    );
    expect(later.runs.pay).toBeUndefined();
    expect(later.runs.after).toBe(1);
    expect(outputs(resumed)[0]).toMatch(/^payer: "done: .*reject/i);
  });

  it('pauses on a long-running tool; its answer, after a reload, continues the agent', async () => {
    const { ctx, runs, paused } = await start('long');
    const call = waitingCall(paused);
    expect(call.name).toBe('pay');
    expect(runs).toEqual({ prepare: 1, pay: 1 });
    const later = await reload('long');
    const resumed = await collect(
      later.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: respond(call.id!, 'pay', { status: 'paid' }),
      }),
    );
    expect(later.runs).toEqual({ after: 1 });
    expect(outputs(resumed)).toEqual([
      'payer: "done: {\\"status\\":\\"paid\\"}"',
      'after: "after: done: {\\"status\\":\\"paid\\"}"',
    ]);
    expect(seen.at(-1)).toEqual([
      'user:Pay for tea',
      'model:call pay',
      'user:answer {"status":"paid"}',
    ]);
  });

  it('a typed message while it waits on a confirmation is a new turn, not a yes', async () => {
    const { ctx, runs, paused } = await start('confirm');
    const call = waitingCall(paused);
    const next = await ctx.run('yes');
    expect(runs.pay).toBeUndefined();
    expect(next[0]!.invocationId).not.toBe(paused[0]!.invocationId);
    const waiting = await ctx.runner.listInterruptedInvocations({
      userId,
      sessionId: ctx.sessionId,
    });
    expect(waiting.map((w) => w.pendingCallIds).flat()).toContain(call.id);
  });

  it('stays paused across a reload until it is answered', async () => {
    const { ctx, paused } = await start('confirm');
    const call = waitingCall(paused);
    const later = await reload('confirm');
    const [still] = await later.runner.listInterruptedInvocations({
      userId,
      sessionId: ctx.sessionId,
    });
    expect(still?.pendingCallIds).toEqual([call.id]);
  });

  it('a tool node whose tool asks for confirmation waits; the yes runs it, its response the output', async () => {
    services = openIndexedDb(freshDbName());
    const build = (runs: Record<string, number>) => {
      const add = new FunctionTool({
        name: 'add',
        description: 'Adds',
        parameters: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number' } },
        },
        requireConfirmation: true,
        execute: (args: Record<string, unknown>) => {
          runs.add = (runs.add ?? 0) + 1;
          return (args['a'] as number) + (args['b'] as number);
        },
      });
      function args() {
        return { a: 2, b: 3 };
      }
      function after(_ctx: NodeContext, input: unknown) {
        return `sum is ${JSON.stringify(input)}`;
      }
      return new Workflow({ name: 'sums', edges: [['START', args, add, after]] });
    };
    const runs: Record<string, number> = {};
    const ctx = await openRunnerSession(services, build(runs), { resumable: true });
    const paused = await ctx.run('go');
    const call = waitingCall(paused);
    expect(call.name).toBe('adk_request_confirmation');
    expect(paused.find((e) => e.longRunningToolIds?.length)?.author).toBe('add');
    expect(runs).toEqual({});

    const restarted = await services.restart();
    services = restarted;
    const later: Record<string, number> = {};
    const { runner } = await openRunnerSession(restarted, build(later), { resumable: true });
    const resumed = await collect(
      runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: respond(call.id!, call.name, { confirmed: true }),
      }),
    );
    expect(later).toEqual({ add: 1 });
    expect(outputs(resumed)).toEqual(['add: {"result":5}', 'after: "sum is {\\"result\\":5}"']);
  });

  it('with two calls waiting in one node, answering one leaves it waiting on the other', async () => {
    seen.length = 0;
    services = openIndexedDb(freshDbName());
    const runs: Record<string, number> = {};
    const ctx = await openRunnerSession(services, payWorkflow(runs, 'confirm', 2), {
      resumable: true,
    });
    const paused = await ctx.run('tea');
    const asked = paused
      .flatMap((e) => e.content?.parts ?? [])
      .map((p) => p.functionCall)
      .filter((c) => c?.name === 'adk_request_confirmation');
    expect(asked).toHaveLength(2);
    const [first, second] = asked as unknown as [FunctionCallLike, FunctionCallLike];
    const answer = (call: FunctionCallLike) =>
      collect(
        ctx.runner.runAsync({
          userId,
          sessionId: ctx.sessionId,
          newMessage: respond(call.id!, call.name, { confirmed: true }),
        }),
      );
    const half = await answer(first);
    expect(runs.pay).toBe(1);
    expect(outputs(half)).toEqual([]);
    const [still] = await ctx.runner.listInterruptedInvocations({
      userId,
      sessionId: ctx.sessionId,
    });
    expect([still?.status, still?.pendingCallIds]).toEqual(['paused', [second.id]]);
    const done = await answer(second);
    expect(runs).toEqual({ prepare: 1, pay: 2, after: 1 });
    expect(outputs(done).map((o) => o.split(':')[0])).toEqual(['payer', 'after']);
    expect(
      await ctx.runner.listInterruptedInvocations({ userId, sessionId: ctx.sessionId }),
    ).toEqual([]);
  });

  it('once it went on and finished, a later resume of the run does not run it again', async () => {
    seen.length = 0;
    services = openIndexedDb(freshDbName());
    const runs: Record<string, number> = {};
    const ctx = await openRunnerSession(services, payWorkflow(runs, 'confirm', 1, true), {
      resumable: true,
    });
    const call = waitingCall(await ctx.run('tea'));
    const calls = seen.length;
    const reviewing = await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: respond(call.id!, call.name, { confirmed: true }),
      }),
    );
    expect(waitingCall(reviewing).id).toBe('keep');
    expect(seen.length).toBe(calls + 1);
    const done = await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: respond('keep', 'adk_request_input', { ok: true }),
      }),
    );
    expect(outputs(done)).toEqual(['done: "kept: {\\"ok\\":true}"']);
    // Neither the node, its model nor its tool ran again: its finished run was read from the log.
    expect(done.filter((e) => e.author === 'payer')).toEqual([]);
    expect(seen.length).toBe(calls + 1);
    expect(runs).toEqual({ prepare: 1, pay: 1, after: 1, check: 1 });
  });

  it('in a cycle, each of its runs waits and goes on by itself', async () => {
    seen.length = 0;
    services = openIndexedDb(freshDbName());
    let paid = 0;
    const pay = new FunctionTool({
      name: 'pay',
      description: 'Pays',
      parameters,
      requireConfirmation: true,
      execute: () => ({ paid: ++paid }),
    });
    const payer = new LlmAgent({ name: 'payer', model: new PayingModel(), tools: [pay] });
    let passes = 0;
    function loop(ctx: NodeContext, input: unknown) {
      passes++;
      ctx.route = passes < 2 ? 'again' : 'done';
      return `pass ${passes}: ${input}`;
    }
    function finish(_ctx: NodeContext, input: unknown) {
      return `finished after ${input}`;
    }
    const workflow = new Workflow({
      name: 'twice',
      edges: [['START', payer, loop, { again: payer, done: finish }]],
    });
    const ctx = await openRunnerSession(services, workflow, { resumable: true });
    const answer = async (events: Event[]) => {
      const call = waitingCall(events);
      return collect(
        ctx.runner.runAsync({
          userId,
          sessionId: ctx.sessionId,
          newMessage: respond(call.id!, call.name, { confirmed: true }),
        }),
      );
    };
    const second = await answer(await ctx.run('tea'));
    expect(paid).toBe(1);
    const done = await answer(second);
    expect(paid).toBe(2);
    expect(outputs(done)).toEqual([
      'payer: "done: {\\"paid\\":2}"',
      'loop: "pass 2: done: {\\"paid\\":2}"',
      'finish: "finished after pass 2: done: {\\"paid\\":2}"',
    ]);
  });
});

type FunctionCallLike = { id?: string; name: string };
