// Runs in flight: what is left after a crash, a reload or a cancelled run is listed, and a new
// runner over the same IndexedDB resumes it without losing or repeating an event.

import { afterEach, describe, expect, it } from 'vitest';
import {
  FunctionTool,
  LlmAgent,
  Runner,
  ScriptedModel,
  SequentialAgent,
  functionCallResponse,
  type BaseAgent,
  type Event,
} from '../../../src/index.ts';
import { describeEvents } from '../../support/describe-events.ts';
import { collect, userMessage } from '../../support/helpers.ts';
import { appName, openRunnerSession, userId } from '../../support/runner-session.ts';
import { indexedDbKind, serviceKinds, type Services } from '../../support/service-kinds.ts';

/** A three-step workflow whose steps count how often their model was called. */
function workflow() {
  const calls: Record<string, number> = {};
  const step = (name: string) =>
    new LlmAgent({
      name,
      model: new ScriptedModel(() => {
        calls[name] = (calls[name] ?? 0) + 1;
        return `${name} done`;
      }),
    });
  const agent = new SequentialAgent({
    name: 'flow',
    subAgents: [step('draft'), step('review'), step('publish')],
  });
  return { agent, calls };
}

const runnerOver = (
  services: Services,
  agent: BaseAgent,
  extra: Partial<ConstructorParameters<typeof Runner>[0]> = {},
) =>
  new Runner({ appName, agent, ...services, resumabilityConfig: { isResumable: true }, ...extra });

describe.each(serviceKinds)('runs in flight ($name)', (kind) => {
  let services: Services;
  afterEach(() => services.close());

  it('lists a run whose reader stopped, and resuming it finishes it', async () => {
    services = kind.open();
    const { agent, calls } = workflow();
    const ctx = await openRunnerSession(services, agent, { resumable: true });
    const stream = ctx.runner.runAsync({
      userId,
      sessionId: ctx.sessionId,
      newMessage: userMessage('go'),
    });
    const seen: Event[] = [];
    for await (const event of stream) {
      seen.push(event);
      if (seen.length === 3) break; // flow's checkpoint, draft's answer, draft's end
    }
    const invocationId = seen[0]!.invocationId;
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toMatchObject([
      { sessionId: ctx.sessionId, invocationId, agentName: 'flow', status: 'interrupted' },
    ]);
    const resumed = await collect(
      ctx.runner.runAsync({ userId, sessionId: ctx.sessionId, invocationId }),
    );
    expect(describeEvents(resumed)).toEqual([
      'flow: state {"current_sub_agent":"review"}',
      'review: "review done"',
      'review: end',
      'flow: state {"current_sub_agent":"publish"}',
      'publish: "publish done"',
      'publish: end',
      'flow: end',
    ]);
    expect(calls).toEqual({ draft: 1, review: 1, publish: 1 });
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toEqual([]);
  });

  it('lists a cancelled run as interrupted, and forgets finished and failed ones', async () => {
    services = kind.open();
    const controller = new AbortController();
    const stop = new FunctionTool({
      name: 'stop',
      description: 'x',
      execute: () => (controller.abort(), 'stopped'),
    });
    const fail = new FunctionTool({
      name: 'fail',
      description: 'x',
      execute: () => {
        throw new Error('broken');
      },
    });
    const model = new ScriptedModel((request) => {
      const text = request.contents.at(-1)!.parts[0]?.text;
      if (text === 'cancel me') return functionCallResponse(['stop', {}]);
      if (text === 'fail') return functionCallResponse(['fail', {}]);
      return 'fine';
    });
    const ctx = await openRunnerSession(
      services,
      new LlmAgent({ name: 'agent', model, tools: [stop, fail] }),
      { resumable: true },
    );
    const cancelled = await collect(
      ctx.runner.runAsync({
        userId,
        sessionId: ctx.sessionId,
        newMessage: userMessage('cancel me'),
        runConfig: { signal: controller.signal },
      }),
    );
    await ctx.run('all good');
    await ctx.run('fail').catch(() => undefined);
    expect(
      await ctx.runner.listInterruptedInvocations({ userId, sessionId: ctx.sessionId }),
    ).toMatchObject([{ invocationId: cancelled[0]!.invocationId, status: 'interrupted' }]);
    const failed = await services.sessionService.listRuns({ appName, userId });
    expect(failed.filter((run) => run.status === 'failed')).toMatchObject([
      { error: { name: 'ToolError', message: "Tool 'fail' failed: broken" } },
    ]);
  });

  it('does not list an invocation a rewind has left', async () => {
    services = kind.open();
    const { agent } = workflow();
    const ctx = await openRunnerSession(services, agent, { resumable: true });
    const stream = ctx.runner.runAsync({
      userId,
      sessionId: ctx.sessionId,
      newMessage: userMessage('go'),
    });
    const first = (await stream.next()).value as Event;
    await stream.return(undefined);
    await ctx.rewind(first.invocationId);
    expect(await ctx.runner.listInterruptedInvocations({ userId })).toEqual([]);
  });
});

describe('a crash, then a new runner over the same IndexedDB', () => {
  let services: Services;
  afterEach(() => services.close());

  it('finds the cut-off run once its heartbeat is stale, and resumes it without repeating a step', async () => {
    services = indexedDbKind.open();
    const before = workflow();
    const crashed = runnerOver(services, before.agent, { heartbeatMs: 60_000 });
    const session = await services.sessionService.createSession({ appName, userId });
    const stream = crashed.runAsync({
      userId,
      sessionId: session.id,
      newMessage: userMessage('go'),
    });
    for (let i = 0; i < 5; i++) await stream.next(); // …through review's answer; then the tab dies
    // (the generator is never resumed nor closed, as when a worker is terminated)

    services = await services.restart();
    const after = workflow();
    let now = Date.now();
    const fresh = runnerOver(services, after.agent, { heartbeatMs: 60_000, clock: () => now });
    // The old runner's heartbeat is recent: it might still be alive somewhere.
    expect(await fresh.listInterruptedInvocations({ userId })).toEqual([]);
    now += 3 * 60_000;
    const [interrupted] = await fresh.listInterruptedInvocations({ userId });
    expect(interrupted).toMatchObject({
      sessionId: session.id,
      status: 'interrupted',
      agentName: 'flow',
    });

    const resumed = await collect(
      fresh.runAsync({ userId, sessionId: session.id, invocationId: interrupted!.invocationId }),
    );
    expect(describeEvents(resumed)).toEqual([
      'review: end',
      'flow: state {"current_sub_agent":"publish"}',
      'publish: "publish done"',
      'publish: end',
      'flow: end',
    ]);
    expect(before.calls).toEqual({ draft: 1, review: 1 });
    expect(after.calls).toEqual({ publish: 1 });
    const log = (await services.sessionService.getSession({
      appName,
      userId,
      sessionId: session.id,
    }))!.events;
    expect(new Set(log.map((e) => e.id)).size).toBe(log.length);
    expect(describeEvents(log.slice(1))).toEqual([
      'flow: state {"current_sub_agent":"draft"}',
      'draft: "draft done"',
      'draft: end',
      'flow: state {"current_sub_agent":"review"}',
      'review: "review done"',
      ...describeEvents(resumed),
    ]);
    expect(await fresh.listInterruptedInvocations({ userId })).toEqual([]);
  });

  it('asks the app whether another runner’s run is alive, when told how', async () => {
    services = indexedDbKind.open();
    const { agent } = workflow();
    const first = runnerOver(services, agent);
    const session = await services.sessionService.createSession({ appName, userId });
    const stream = first.runAsync({ userId, sessionId: session.id, newMessage: userMessage('go') });
    await stream.next();
    const alive = new Set<string>();
    const observer = runnerOver(services, workflow().agent, {
      runLiveness: (run) => alive.has(run.ownerId),
    });
    expect(await observer.listInterruptedInvocations({ userId })).toHaveLength(1);
    alive.add(first.instanceId);
    expect(await observer.listInterruptedInvocations({ userId })).toEqual([]);
    await stream.return(undefined);
  });
});
