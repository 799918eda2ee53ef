// What ADK's Workflow does not do and Trellis's does: a workflow's node states are in the log, so
// a workflow paused for a human resumes in another runner over the same IndexedDB (after a
// reload), a stopped or cut-off workflow goes on from its last finished node with the routes it
// took, and a rewind before a workflow turn takes back what its nodes wrote.

import { afterEach, describe, expect, it } from 'vitest';
import {
  RequestInput,
  Workflow,
  type Content,
  type Event,
  type NodeContext,
} from '../../../src/index.ts';
import { collect, freshDbName } from '../../support/helpers.ts';
import { openRunnerSession, userId, type RunnerSession } from '../../support/runner-session.ts';
import { openIndexedDb, type Services } from '../../support/service-kinds.ts';

const answer = (id: string, response: Record<string, unknown>): Content => ({
  role: 'user',
  parts: [{ functionResponse: { id, name: 'adk_request_input', response } }],
});

/** A triage → handler → review (a human) → publish workflow, counting every node run. */
function supportWorkflow(runs: Record<string, number>) {
  const count = (name: string) => (runs[name] = (runs[name] ?? 0) + 1);
  function triage(ctx: NodeContext, input: unknown) {
    count('triage');
    ctx.state.set('question', input);
    ctx.route = String(input).includes('bill') ? 'billing' : 'other';
    return String(input);
  }
  function billing(_ctx: NodeContext, input: unknown) {
    count('billing');
    return `Refund for: ${input}`;
  }
  function other(_ctx: NodeContext, input: unknown) {
    count('other');
    return `Forwarded: ${input}`;
  }
  function* review(_ctx: NodeContext, input: unknown) {
    count('review');
    yield new RequestInput({ message: `Send "${input}"?`, interruptId: 'review-1' });
  }
  function publish(ctx: NodeContext, input: unknown) {
    count('publish');
    ctx.state.set('sent', true);
    return `sent (${JSON.stringify(input)})`;
  }
  return new Workflow({
    name: 'support',
    edges: [
      ['START', triage, { billing, other }],
      [billing, review],
      [other, review],
      [review, publish],
    ],
  });
}

const outputs = (events: readonly Event[]) =>
  events
    .filter((e) => e.output !== undefined)
    .map((e) => `${e.author}: ${JSON.stringify(e.output)}`);

describe('Workflow resume', () => {
  let services: Services;
  afterEach(() => services.close());

  async function open(runs: Record<string, number>, existing?: Services): Promise<RunnerSession> {
    services = existing ?? openIndexedDb(freshDbName());
    return openRunnerSession(services, supportWorkflow(runs), { resumable: true });
  }

  it('waits for a human across a reload: the answer, given to a new runner, continues the run', async () => {
    const before: Record<string, number> = {};
    const first = await open(before);
    const paused = await first.run('my bill is wrong');
    expect(outputs(paused)).toEqual([
      'triage: "my bill is wrong"',
      'billing: "Refund for: my bill is wrong"',
    ]);
    const interrupted = await first.runner.listInterruptedInvocations({
      userId,
      sessionId: first.sessionId,
    });
    expect(interrupted.map((r) => [r.status, r.pendingCallIds])).toEqual([
      ['paused', ['review-1']],
    ]);

    // A reload: new services over the same database, a new runner, a new Workflow object.
    const after: Record<string, number> = {};
    const restarted = await services.restart();
    const runner = (await openRunnerSession(restarted, supportWorkflow(after), { resumable: true }))
      .runner;
    const resumed = await collect(
      runner.runAsync({
        userId,
        sessionId: first.sessionId,
        newMessage: answer('review-1', { approved: true }),
      }),
    );
    expect(outputs(resumed)).toEqual(['publish: "sent ({\\"approved\\":true})"']);
    // Nothing that finished before the pause ran again, and review took its answer as output.
    expect(after).toEqual({ publish: 1 });
    expect(resumed.every((e) => e.invocationId === paused[0]!.invocationId)).toBe(true);
    const session = await restarted.sessionService.getSession({
      appName: 'app',
      userId,
      sessionId: first.sessionId,
    });
    expect(session!.state).toEqual({ question: 'my bill is wrong', sent: true });
    expect(await runner.listInterruptedInvocations({ userId, sessionId: first.sessionId })).toEqual(
      [],
    );
  });

  it('goes on after Stop from its last finished node, along the route it took', async () => {
    const runs: Record<string, number> = {};
    const ctx = await open(runs);
    const controller = new AbortController();
    const stopped: Event[] = [];
    await expect(
      (async () => {
        for await (const event of ctx.runner.runAsync({
          userId,
          sessionId: ctx.sessionId,
          newMessage: { role: 'user', parts: [{ text: 'hello there' }] },
          runConfig: { signal: controller.signal },
        })) {
          stopped.push(event);
          // Stop once the route's handler has answered.
          if (event.author === 'other') controller.abort();
        }
      })(),
    ).resolves.toBeUndefined();
    expect(outputs(stopped)).toEqual(['triage: "hello there"', 'other: "Forwarded: hello there"']);
    const [cut] = await ctx.runner.listInterruptedInvocations({ userId, sessionId: ctx.sessionId });
    expect(cut?.status).toBe('interrupted');

    const resumed = await collect(
      ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId: cut!.invocationId }),
    );
    // triage and other are not run again; review asks (on the route "other" took).
    expect(runs).toEqual({ triage: 1, other: 1, review: 1 });
    expect(resumed.some((e) => e.longRunningToolIds?.includes('review-1'))).toBe(true);
    const done = await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: answer('review-1', { approved: false }),
      }),
    );
    expect(outputs(done)).toEqual(['publish: "sent ({\\"approved\\":false})"']);
  });

  it('goes on after a crash (the reader gone mid-run) in a new runner', async () => {
    const runs: Record<string, number> = {};
    const ctx = await open(runs);
    const stream = ctx.stream('a billing question');
    for await (const event of stream) if (event.author === 'triage') break;
    const restarted = await services.restart();
    const later: Record<string, number> = {};
    const runner = (await openRunnerSession(restarted, supportWorkflow(later), { resumable: true }))
      .runner;
    const [cut] = await runner.listInterruptedInvocations({ userId, sessionId: ctx.sessionId });
    expect(cut?.status).toBe('interrupted');
    const resumed = await collect(
      runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId: cut!.invocationId }),
    );
    expect(later.triage).toBeUndefined();
    expect(outputs(resumed)).toEqual(['billing: "Refund for: a billing question"']);
  });

  it('runs nothing unseen once its reader stops: the next node runs only when resumed', async () => {
    const runs: Record<string, number> = {};
    const ctx = await open(runs);
    for await (const event of ctx.stream('hello there')) if (event.author === 'triage') break;
    // Give a node that went on in the background every chance to run.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(runs).toEqual({ triage: 1 });
    const [cut] = await ctx.runner.listInterruptedInvocations({ userId, sessionId: ctx.sessionId });
    await collect(
      ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId: cut!.invocationId }),
    );
    expect(runs).toEqual({ triage: 1, other: 1, review: 1 });
  });

  it('rewinds before a workflow turn: what its nodes wrote to the state goes back', async () => {
    const runs: Record<string, number> = {};
    const ctx = await open(runs);
    const first = await ctx.run('my bill is wrong');
    await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: answer('review-1', { approved: true }),
      }),
    );
    expect((await ctx.read()).state).toEqual({ question: 'my bill is wrong', sent: true });
    const second = await ctx.run('another bill');
    expect((await ctx.read()).state).toMatchObject({ question: 'another bill' });
    await ctx.rewind(second[0]!.invocationId);
    expect((await ctx.read()).state).toEqual({ question: 'my bill is wrong', sent: true });
    await ctx.rewind(first[0]!.invocationId);
    expect((await ctx.read()).state).toEqual({});
  });
});
