// A store that fails an append during a run: a new turn, a resumed invocation, and a flow on
// parallel branches. Whichever append fails, the caller gets the store's error (never one that
// reads as a cancellation), the log keeps exactly what was stored before it, the run's record
// says it failed, and the invocation can be resumed to the end it would have reached.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  LlmAgent,
  ScriptedModel,
  SequentialAgent,
  activeEvents,
  compileFlow,
  textOf,
  type Event,
} from '../../../src/index.ts';
import {
  CommitRollbacks,
  failingInMemory,
  failingIndexedDb,
  type AppendFaults,
} from '../../support/failing-appends.ts';
import { FAN_FLOW, nodeModel } from '../../support/flows.ts';
import {
  appName,
  openRunnerSession,
  userId,
  type RunnerSession,
} from '../../support/runner-session.ts';
import type { Services } from '../../support/service-kinds.ts';

const rollbacks = new CommitRollbacks();
beforeAll(() => rollbacks.install());
afterAll(() => rollbacks.uninstall());

/** What a stream yielded before it ended, and the error it ended with, if any. */
async function attempt(stream: AsyncIterable<Event>): Promise<{ events: Event[]; error?: Error }> {
  const events: Event[] = [];
  try {
    for await (const event of stream) if (!event.partial) events.push(event);
  } catch (error) {
    return { events, error: error as Error };
  }
  return { events };
}

const workflow = () =>
  new SequentialAgent({
    name: 'flow',
    subAgents: ['draft', 'review', 'publish'].map(
      (name) => new LlmAgent({ name, model: new ScriptedModel(() => `${name} done`) }),
    ),
  });

const fanAgent = () =>
  compileFlow(FAN_FLOW, {
    model: nodeModel(
      Object.fromEntries(['b', 'c', 'e', 'd'].map((node) => [node, () => `${node} says hi`])),
    ),
  });

/** The replies of the active conversation, and the flow's completed nodes, sorted. */
async function outcome(session: RunnerSession) {
  const active = activeEvents((await session.read()).events);
  return {
    replies: active.map((event) => textOf(event.content)).filter(Boolean),
    completed: active
      .map((event) => event.actions.agentState?.['completed_node'])
      .filter((node) => node !== undefined)
      .sort(),
    state: (await session.read()).state,
  };
}

describe.each([failingInMemory, failingIndexedDb(rollbacks)])(
  'a run whose store fails an append ($name)',
  (kind) => {
    let opened: { services: Services; faults: AppendFaults }[] = [];
    const open = () => {
      const services = kind.open();
      opened.push(services);
      return services;
    };
    afterEach(async () => {
      // A failure armed for an append that never came must not trip the next test.
      rollbacks.failAppend(0);
      await Promise.all(opened.map(({ services }) => services.close()));
      opened = [];
    });

    /** The failure as the caller sees it, and what it left behind. */
    async function expectFailed(
      { services }: { services: Services },
      session: RunnerSession,
      error: Error | undefined,
      invocationId: string | undefined,
    ) {
      expect(error?.name).toBe(kind.errorName);
      expect(error?.message).not.toBe('');
      const runs = await services.sessionService.listRuns({
        appName,
        userId,
        sessionId: session.sessionId,
      });
      // The user's message did not reach the store: there is no invocation, and no run.
      if (invocationId === undefined) expect(runs).toEqual([]);
      // Nothing of the failed change was saved: the run is offered for resuming.
      else expect(runs).toMatchObject([{ invocationId, status: 'interrupted' }]);
      expect(runs[0]?.error?.name ?? kind.errorName).toBe(kind.errorName);
    }

    /**
     * Runs `agent` for one turn with its `nth` append failing, for every n until the turn ends
     * before the nth append; each failed turn is then resumed with the store healthy, and must
     * end as a turn that never failed.
     */
    async function failEachAppendOfATurn(agent: () => Parameters<typeof openRunnerSession>[1]) {
      const healthy = open();
      const reference = await openRunnerSession(healthy.services, agent(), { resumable: true });
      await reference.run('go');
      const expected = await outcome(reference);
      let failures = 0;
      for (let nth = 1; ; nth++) {
        const faulty = open();
        const session = await openRunnerSession(faulty.services, agent(), { resumable: true });
        faulty.faults.failAppend(nth);
        const { events, error } = await attempt(session.stream('go'));
        if (!faulty.faults.tripped) {
          expect(error).toBeUndefined();
          break;
        }
        failures++;
        const stored = (await session.read()).events;
        // Exactly what was yielded (each event is stored before it is yielded), after the
        // user's message: the event that failed is neither yielded nor stored.
        expect(stored.slice(1).map((event) => event.id)).toEqual(events.map((event) => event.id));
        const invocationId = stored[0]?.invocationId;
        await expectFailed(faulty, session, error, invocationId);
        if (invocationId === undefined) continue;
        const resumed = await attempt(
          session.runner.runAsync({ userId, ...session, invocationId }),
        );
        expect(resumed.error).toBeUndefined();
        expect(await outcome(session)).toEqual(expected);
        expect(
          await faulty.services.sessionService.listRuns({
            appName,
            userId,
            sessionId: session.sessionId,
          }),
        ).toEqual([]);
      }
      expect(failures).toBeGreaterThan(3);
    }

    it('fails a new turn at any append with the store’s error, and it resumes to its end', () =>
      failEachAppendOfATurn(workflow));

    it('fails a flow on parallel branches at any append, and it resumes to its end', () =>
      failEachAppendOfATurn(fanAgent));

    it('fails a resumed invocation at any append, and it resumes again to its end', async () => {
      let failures = 0;
      for (let nth = 1; ; nth++) {
        const faulty = open();
        const session = await openRunnerSession(faulty.services, fanAgent(), { resumable: true });
        // Interrupted after its first stored event: the consumer stops reading.
        const stream = session.stream('go');
        const first = (await stream.next()).value as Event;
        await stream.return(undefined);
        const before = (await session.read()).events;
        faulty.faults.failAppend(nth);
        const request = { userId, sessionId: session.sessionId, invocationId: first.invocationId };
        const { events, error } = await attempt(session.runner.runAsync(request));
        if (!faulty.faults.tripped) {
          expect(error).toBeUndefined();
          break;
        }
        failures++;
        expect((await session.read()).events.map((event) => event.id)).toEqual(
          [...before, ...events].map((event) => event.id),
        );
        await expectFailed(faulty, session, error, first.invocationId);
        expect((await attempt(session.runner.runAsync(request))).error).toBeUndefined();
        const { completed, state } = await outcome(session);
        expect(completed).toEqual(['b', 'c', 'd', 'e', 'end', 'start']);
        expect([...(state['notes'] as string[])].sort()).toEqual([
          'b says hi',
          'c says hi',
          'e says hi',
        ]);
      }
      expect(failures).toBeGreaterThan(3);
    });
  },
);
