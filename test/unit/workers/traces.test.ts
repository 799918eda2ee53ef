// The app's traces (the worker's runtime in Node over fake-indexeddb): a turn of a demo agent
// and of a flow read back as one invocation's spans with its events, exported as OTLP JSON, and
// gone with their session; a remote session and an unknown invocation get clear errors.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type { Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';

function open() {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => undefined,
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

describe('app traces', () => {
  it('reads one invocation’s spans with its events, exports them, and deletes them with the session', async () => {
    const runtime = open();
    const session = await runtime.createSession('example:support');
    const seen: Event[] = [];
    await runtime.runs.send(session.id, 'Is invoice INV-1042 paid?', (event) =>
      seen.push(event as Event),
    );
    const invocationId = seen[0]!.invocationId;
    const trace = await runtime.traces.trace(session.id, invocationId);
    expect(trace.spans.map((span) => span.kind)).toContain('invocation');
    // The flow's nodes are agents under the flow's agent.
    const agents = trace.spans.filter((span) => span.kind === 'agent').map((span) => span.name);
    expect(agents.length).toBeGreaterThan(2);
    expect(trace.spans.some((span) => span.kind === 'model')).toBe(true);
    expect(trace.events.map((event) => event.id)).toEqual(
      expect.arrayContaining(seen.filter((event) => !event.partial).map((event) => event.id)),
    );
    const file = await runtime.traces.exportOtlp(session.id);
    // Named by its title (its first message) and the day, not by its id.
    expect(file.filename).toMatch(/^is-invoice-inv-1042-paid-\d{4}-\d\d-\d\d\.otlp\.json$/);
    // Safe for any file system, whatever the title holds; letters of any script kept.
    await runtime.renameSession(session.id, 'Trip: Zürich/Rome <draft>?* \u65c5\u884c');
    expect((await runtime.traces.exportOtlp(session.id)).filename).toMatch(
      /^trip-zürich-rome-draft-\u65c5\u884c-\d{4}-\d\d-\d\d\.otlp\.json$/u,
    );
    expect(JSON.parse(file.json).resourceSpans[0].scopeSpans[0].spans.length).toBe(
      trace.spans.length,
    );
    await runtime.deleteSession(session.id);
    expect((await rejectionOf(runtime.traces.exportOtlp(session.id))).message).toMatch(/no trace/);
  });

  it('says what is wrong with an unknown invocation or a remote session', async () => {
    const runtime = open();
    const session = await runtime.createSession();
    expect((await rejectionOf(runtime.traces.trace(session.id, 'nope'))).message).toMatch(
      /no invocation nope/,
    );
    expect((await rejectionOf(runtime.traces.trace('adk:server:app:id', 'x'))).message).toMatch(
      /ADK server/,
    );
  });
});
