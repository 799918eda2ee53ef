// A run whose model waits to try its provider again says so as it waits (the chat counts down),
// and Stop ends the wait at once: in the runtime the worker runs, against the fixture model
// server over real HTTP.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import { modelWaitOf } from '../../../src/core/model-wait.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { fixtureSession } from '../../support/fixture-agent.ts';
import { freshDbName } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

async function sessionOn(model: string) {
  const runtime = new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => undefined,
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
  return { runtime, id: await fixtureSession(runtime, server.url, model) };
}

it('tells the page each wait as a partial event, then the answer comes', async () => {
  const model = 'fixture-429-wait-then-ok@run';
  const { runtime, id } = await sessionOn(model);
  const events: Event[] = [];
  await runtime.runs.send(id, 'Why is the sky blue?', (event) => events.push(event));
  const waits = events.filter((event) => modelWaitOf(event));
  expect(waits).toHaveLength(1);
  expect(waits[0]).toMatchObject({ author: 'sky', partial: true });
  expect(waits[0]!.content).toBeUndefined();
  expect(modelWaitOf(waits[0]!)).toMatchObject({
    provider: 'Fixture',
    reason: 'rate-limited',
    status: 429,
    attempt: 2,
    attempts: 4,
    delayMs: 2000,
    asked: true,
  });
  // Said before the wait, and never stored.
  const at = events.indexOf(waits[0]!);
  expect(events.slice(at + 1).some((event) => textOf(event.content).startsWith('The sky'))).toBe(
    true,
  );
  expect((await runtime.openSession(id)).events.some((event) => modelWaitOf(event))).toBe(false);
});

it('stops at once while it waits: no other attempt, and the run can be resumed', async () => {
  const model = 'fixture-429-wait-long@stop';
  const { runtime, id } = await sessionOn(model);
  const error = await runtime.runs
    .send(id, 'Why is the sky blue?', (event) => {
      if (modelWaitOf(event)) runtime.runs.stop(id); // it asked for 30 s
    })
    .then(
      () => undefined,
      (thrown: Error) => thrown,
    );
  expect(error).toBeUndefined();
  expect(server.requests.filter((r) => r.body?.model === model)).toHaveLength(1);
  expect(await runtime.runs.interruptedRuns()).toMatchObject([{ sessionId: id, cause: 'stopped' }]);
});
