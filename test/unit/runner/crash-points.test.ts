// A tab killed at any point of a run: for every write of a turn, and of the answer to an
// approval, the store is left exactly as a kill right after that write leaves it; a new runner on
// the same store (as after a relaunch) must then offer the run, and resuming it must finish it as
// if nothing had happened, and clear the offer. Nothing is ever stuck: a run whose message or
// answer is stored is offered, and a Resume always moves it on.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEvent, functionResponsesOf, type Runner } from '../../../src/index.ts';
import { INSTANT_DEMO, createWritingWorkflow } from '../../../src/demos/writing-workflow.ts';
import { KillSwitch, withWriteFault } from '../../support/dying-services.ts';
import { collect, userMessage } from '../../support/helpers.ts';
import { appName, userId } from '../../support/runner-session.ts';
import {
  approvalId,
  approve,
  checkLog,
  newRunner,
  outcome,
  resumeAll,
  scenarios,
  type Scenario,
} from '../../support/run-scenarios.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

describe.each(serviceKinds)('a run killed at any write ($name)', (kind) => {
  let opened: Services[] = [];
  const open = () => {
    const services = kind.open();
    opened.push(services);
    return services;
  };
  beforeEach(() => {
    // The dead runner's last words (its record could not be written) are expected noise here.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await Promise.all(opened.map((services) => services.close()));
    opened = [];
  });

  /** The outcome of the scenario with nothing killed: after its turn, and after the answer. */
  async function reference(scenario: Scenario) {
    const services = open();
    const runner = newRunner(services, scenario.agent());
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    const turn = await collect(
      runner.runAsync({ userId, sessionId, newMessage: userMessage(scenario.message) }),
    );
    const afterTurn = await outcome(services, sessionId);
    if (!scenario.approval) return { afterTurn };
    await collect(runner.runAsync({ userId, sessionId, newMessage: approve(approvalId(turn)) }));
    return { afterTurn, afterAnswer: await outcome(services, sessionId) };
  }

  /**
   * Kills `run` after its nth write, for n = 0, 1, 2… until it finishes first; after each kill a
   * new runner on the same store must offer what was cut off and finish it (`finish`), and the
   * session must end as `expected`. Returns how many kill points were tried.
   */
  async function killAtEveryWrite(
    scenario: Scenario,
    prepare: (runner: Runner, sessionId: string) => Promise<void>,
    run: (runner: Runner, sessionId: string) => Promise<unknown>,
    finish: (runner: Runner, sessionId: string, services: Services) => Promise<void>,
    expected: Awaited<ReturnType<typeof outcome>>,
  ): Promise<number> {
    for (let n = 0; ; n++) {
      const services = open();
      const kill = new KillSwitch();
      const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
      const dying = newRunner(withWriteFault(services, kill), scenario.agent());
      await prepare(dying, sessionId);
      kill.killAfter(n);
      await run(dying, sessionId).catch((error: Error) => {
        if (error.name !== 'KilledError') throw error;
      });
      if (!kill.killed) return n;
      // The relaunch: new services on the same storage, a new runner.
      const relaunched = await services.restart();
      opened.push(relaunched);
      const runner = newRunner(relaunched, scenario.agent());
      await finish(runner, sessionId, relaunched);
      const { events } = (await relaunched.sessionService.getSession({
        appName,
        userId,
        sessionId,
      }))!;
      checkLog(events);
      expect(await outcome(relaunched, sessionId), `killed after write ${n}`).toEqual(expected);
    }
  }

  describe.each(scenarios)('$name', (scenario) => {
    it('a turn: its message stored means its run is offered, and Resume finishes it', async () => {
      const expected = await reference(scenario);
      const tried = await killAtEveryWrite(
        scenario,
        async () => undefined,
        (runner, sessionId) =>
          collect(
            runner.runAsync({ userId, sessionId, newMessage: userMessage(scenario.message) }),
          ),
        async (runner, sessionId, services) => {
          const { events } = (await services.sessionService.getSession({
            appName,
            userId,
            sessionId,
          }))!;
          const offered = await runner.listInterruptedInvocations({ userId, sessionId });
          const started = events.find((event) => event.author === 'user');
          if (!started) {
            // Killed before the message was stored: nothing happened, send it again.
            expect(offered).toEqual([]);
            await collect(
              runner.runAsync({ userId, sessionId, newMessage: userMessage(scenario.message) }),
            );
          } else {
            expect(offered.map((run) => run.invocationId)).toEqual([started.invocationId]);
          }
          const left = await resumeAll(runner, sessionId);
          // What is left waits for the user's approval, and only when the turn asks for one.
          expect(left.map((run) => run.status)).toEqual(scenario.approval ? ['paused'] : []);
        },
        expected.afterTurn,
      );
      expect(tried).toBeGreaterThan(2);
    });

    it.runIf(scenario.approval)(
      "an approval's answer: stored means the run goes on; Resume finishes it and clears the offer",
      async () => {
        const expected = await reference(scenario);
        let requestId = '';
        const tried = await killAtEveryWrite(
          scenario,
          async (runner, sessionId) => {
            const turn = await collect(
              runner.runAsync({ userId, sessionId, newMessage: userMessage(scenario.message) }),
            );
            requestId = approvalId(turn);
          },
          (runner, sessionId) =>
            collect(runner.runAsync({ userId, sessionId, newMessage: approve(requestId) })),
          async (runner, sessionId, services) => {
            const { events } = (await services.sessionService.getSession({
              appName,
              userId,
              sessionId,
            }))!;
            const answered = events.some((event) =>
              functionResponsesOf(event.content).some((response) => response.id === requestId),
            );
            const offered = await runner.listInterruptedInvocations({ userId, sessionId });
            // Unanswered, it still waits for the answer; answered, it is cut off and offered.
            expect(offered.map((run) => run.status)).toEqual([answered ? 'interrupted' : 'paused']);
            if (!answered)
              await collect(runner.runAsync({ userId, sessionId, newMessage: approve(requestId) }));
            expect(await resumeAll(runner, sessionId)).toEqual([]);
          },
          expected.afterAnswer!,
        );
        expect(tried).toBeGreaterThan(2);
      },
    );
  });
});

describe.each(serviceKinds)(
  'a paused run whose answer is stored without its record ($name)',
  (kind) => {
    let services: Services;
    afterEach(() => services.close());

    // What a crash between the answer and the record of its run left, before they were one write.
    it('is offered as interrupted, and Resume finishes it', async () => {
      services = kind.open();
      const runner = newRunner(services, createWritingWorkflow(INSTANT_DEMO));
      const session = await services.sessionService.createSession({ appName, userId });
      const sessionId = session.id;
      const turn = await collect(
        runner.runAsync({ userId, sessionId, newMessage: userMessage('Tea') }),
      );
      const invocationId = turn[0]!.invocationId;
      expect(await runner.listInterruptedInvocations({ userId, sessionId })).toMatchObject([
        { invocationId, status: 'paused' },
      ]);
      const publisher = turn.find((event) => event.author === 'publisher')!;
      await services.sessionService.appendEvent({
        session,
        event: createEvent({
          invocationId,
          author: 'user',
          content: approve(approvalId(turn)),
          ...(publisher.branch ? { branch: publisher.branch } : {}),
        }),
      });
      expect(await runner.listInterruptedInvocations({ userId, sessionId })).toMatchObject([
        { invocationId, status: 'interrupted' },
      ]);
      expect(await resumeAll(runner, sessionId)).toEqual([]);
      expect((await outcome(services, sessionId)).replies.at(-1)).toBe(
        'Publishing complete: "Notes on Tea" is saved as post.md.',
      );
    });
  },
);
