// An event that starts or resumes a run is appended with the record of its run, in one atomic
// write: both are stored, or neither is (both session services).

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, type Event, type RunRecord } from '../../../src/index.ts';
import { CommitRollbacks } from '../../support/failing-appends.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { serviceKinds, type Services } from '../../support/service-kinds.ts';

const appName = 'app';
const userId = 'ada';

const rollbacks = new CommitRollbacks();
beforeAll(() => rollbacks.install());
afterAll(() => rollbacks.uninstall());

const message = (invocationId: string, id?: string): Event =>
  createEvent({
    invocationId,
    author: 'user',
    content: { role: 'user', parts: [{ text: 'hello' }] },
    ...(id ? { id } : {}),
  });

const recordOf = (sessionId: string, invocationId: string): RunRecord => ({
  appName,
  userId,
  sessionId,
  invocationId,
  agentName: 'agent',
  status: 'running',
  startedAt: 1,
  updatedAt: 1,
  heartbeatAt: 1,
  ownerId: 'runner-1',
});

describe.each(serviceKinds)('appendEvent with the record of a run ($name)', (kind) => {
  let services: Services;
  afterEach(async () => {
    rollbacks.failAppend(0);
    await services.close();
  });

  async function fresh() {
    services = kind.open();
    const session = await services.sessionService.createSession({ appName, userId });
    const runs = () => services.sessionService.listRuns({ appName, userId, sessionId: session.id });
    const events = async () =>
      (await services.sessionService.getSession({ appName, userId, sessionId: session.id }))!
        .events;
    return { session, runs, events };
  }

  it('stores the event and the record together, and the record as it was given', async () => {
    const { session, runs, events } = await fresh();
    const run = recordOf(session.id, 'i-1');
    await services.sessionService.appendEvent({ session, event: message('i-1'), run });
    expect(await runs()).toEqual([run]);
    expect((await events()).map((event) => event.invocationId)).toEqual(['i-1']);
    // Seen by new service instances too (after a reload).
    services = await services.restart();
    expect(await services.sessionService.listRuns({ appName, userId })).toEqual([run]);
  });

  it('an ordinary append leaves the records alone', async () => {
    const { session, runs } = await fresh();
    const run = recordOf(session.id, 'i-1');
    await services.sessionService.appendEvent({ session, event: message('i-1'), run });
    await services.sessionService.appendEvent({ session, event: message('i-1') });
    expect(await runs()).toEqual([run]);
  });

  it('a duplicate event writes neither', async () => {
    const { session, runs, events } = await fresh();
    await services.sessionService.appendEvent({ session, event: message('i-1', 'e-1') });
    const error = await rejectionOf(
      services.sessionService.appendEvent({
        session,
        event: message('i-2', 'e-1'),
        run: recordOf(session.id, 'i-2'),
      }),
    );
    expect(error.name).toBe('DuplicateEventError');
    expect(await runs()).toEqual([]);
    expect(await events()).toHaveLength(1);
  });

  it.runIf(kind.persistent)('a write the browser rolls back writes neither', async () => {
    const { session, runs, events } = await fresh();
    rollbacks.failAppend(1);
    const error = await rejectionOf(
      services.sessionService.appendEvent({
        session,
        event: message('i-1'),
        run: recordOf(session.id, 'i-1'),
      }),
    );
    expect(rollbacks.tripped).toBe(true);
    expect(error.name).toBe('StorageError');
    expect(await runs()).toEqual([]);
    expect(await events()).toEqual([]);
  });
});
