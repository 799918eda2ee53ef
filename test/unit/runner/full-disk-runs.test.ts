// A disk that fills up at any write of a run (an event, its state and checkpoint, a tool's
// artifact, the run's record): the run is interrupted, never failed, with the store's own error
// (StorageFullError, whose message the resume banner shows), nothing of the refused write is
// stored, and once there is room, resuming it ends the session as if the disk had never filled.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type BaseSessionService, type Runner } from '../../../src/index.ts';
import { withWriteFault } from '../../support/dying-services.ts';
import { FullDiskOnce, IndexedDbQuota } from '../../support/full-disk.ts';
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
import { inMemoryKind, indexedDbKind, type Services } from '../../support/service-kinds.ts';

const quota = new IndexedDbQuota();
beforeAll(() => quota.install());
afterAll(() => quota.uninstall());

interface DiskKind {
  name: string;
  /** Services whose nth write from `failWrite(n)` on finds the disk full. */
  open(): {
    services: Services;
    faulty: Pick<Services, 'sessionService' | 'artifactService'>;
    disk: {
      failWrite(nth: number, options?: { lasting?: boolean }): void;
      readonly tripped: boolean;
    };
  };
}

const kinds: DiskKind[] = [
  {
    name: 'in-memory',
    open() {
      const services = inMemoryKind.open();
      const disk = new FullDiskOnce();
      return { services, faulty: withWriteFault(services, disk), disk };
    },
  },
  {
    name: 'IndexedDB, over quota',
    open() {
      const services = indexedDbKind.open();
      return { services, faulty: services, disk: quota };
    },
  },
];

const sessionOf = async (service: BaseSessionService, sessionId: string) =>
  (await service.getSession({ appName, userId, sessionId }))!;

describe.each(kinds)('a run that finds the disk full ($name)', (kind) => {
  let opened: Services[] = [];
  beforeEach(() => {
    // The record of the run may be refused too: the runner says so, which is expected here.
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(async () => {
    quota.failWrite(0);
    vi.restoreAllMocks();
    await Promise.all(opened.map((services) => services.close()));
    opened = [];
  });

  /** The scenario on a healthy disk: the outcome after its turn and after the answer. */
  async function reference(scenario: Scenario) {
    const services = indexedDbKind.open();
    opened.push(services);
    const runner = newRunner(services, scenario.agent());
    const { id: sessionId } = await services.sessionService.createSession({ appName, userId });
    const turn = await collect(
      runner.runAsync({ userId, sessionId, newMessage: userMessage(scenario.message) }),
    );
    const afterTurn = await outcome(services, sessionId);
    if (!scenario.approval) return afterTurn;
    await collect(runner.runAsync({ userId, sessionId, newMessage: approve(approvalId(turn)) }));
    return outcome(services, sessionId);
  }

  // Full for one write, or from it on until room is made (the record of the run is refused too).
  const cases = scenarios.flatMap((scenario) =>
    [false, true].map((lasting) => ({
      ...scenario,
      lasting,
      for: lasting ? 'from then on' : 'once',
    })),
  );

  it.each(cases)(
    '$name, full $for: interrupted with StorageFullError at every write, then resumed to the end',
    async (scenario) => {
      const expected = await reference(scenario);
      let tried = 0;
      for (let nth = 1; ; nth++) {
        const { services, faulty, disk } = kind.open();
        opened.push(services);
        // The runner that meets the full disk is the one that resumes: the page does not reload.
        const runner: Runner = newRunner(faulty, scenario.agent());
        const { id: sessionId } = await services.sessionService.createSession({
          appName,
          userId,
        });
        let requestId: string | undefined;
        if (scenario.approval) {
          const turn = await collect(
            runner.runAsync({ userId, sessionId, newMessage: userMessage(scenario.message) }),
          );
          requestId = approvalId(turn);
        }
        const message = requestId ? approve(requestId) : userMessage(scenario.message);
        disk.failWrite(nth, { lasting: scenario.lasting });
        const error = await collect(runner.runAsync({ userId, sessionId, newMessage: message }))
          .then(() => undefined)
          .catch((thrown: Error) => thrown);
        const tripped = disk.tripped;
        disk.failWrite(0);
        if (!tripped) {
          expect(error).toBeUndefined();
          break;
        }
        tried++;
        const at = `the disk full at write ${nth}`;
        // The store's own error, never a tool's error wrapping it.
        if (error) expect(error.name, at).toBe('StorageFullError');
        const { events } = await sessionOf(services.sessionService, sessionId);
        expect(
          events.filter((event) => event.errorCode === 'TOOL_ERROR'),
          at,
        ).toEqual([]);
        const records = await services.sessionService.listRuns({ appName, userId, sessionId });
        expect(
          records.filter((run) => run.status === 'failed'),
          at,
        ).toEqual([]);
        const offered = await runner.listInterruptedInvocations({ userId, sessionId });
        // Every runner over the same store says the same (the app lists runs with another one).
        expect(
          await newRunner(faulty, scenario.agent()).listInterruptedInvocations({
            userId,
            sessionId,
          }),
          at,
        ).toEqual(offered);
        const started = scenario.approval
          ? events.some((event) => event.author === 'user' && event !== events[0])
          : events.length > 0;
        if (error && started) {
          // Offered for resuming, with the reason the banner shows.
          expect(offered, at).toMatchObject([
            {
              status: 'interrupted',
              error: {
                name: 'StorageFullError',
                message: expect.stringMatching(/storage .* full/),
              },
            },
          ]);
        }
        // Room again: whatever is offered is resumed, and a message never stored is sent again.
        let left = await resumeAll(runner, sessionId);
        if (!started) {
          expect(
            offered.map((run) => run.status),
            at,
          ).toEqual(scenario.approval ? ['paused'] : []);
          await collect(runner.runAsync({ userId, sessionId, newMessage: message }));
          left = await resumeAll(runner, sessionId);
        }
        expect(
          left.map((run) => run.status),
          at,
        ).toEqual(!scenario.approval || requestId ? [] : ['paused']);
        checkLog((await sessionOf(services.sessionService, sessionId)).events);
        expect(await outcome(services, sessionId), at).toEqual(expected);
      }
      expect(tried).toBeGreaterThan(2);
    },
  );
});
