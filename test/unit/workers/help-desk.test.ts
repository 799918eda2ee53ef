// The help desk, the ADK 2.0 Workflow the app ships (src/demos/help-desk.ts), in the runtime the
// worker runs (Node over fake-indexeddb): routed by its triage, its reply and ticket side by
// side, waiting for the user's review across a reload, and sent once the user says yes.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName } from '../../support/helpers.ts';

function open(dbName: string) {
  return new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: () => undefined,
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

const said = (events: readonly Event[]) =>
  events
    .filter((e) => !e.partial && e.output !== undefined)
    .map((e) => `${e.author}: ${textOf(e.content)}`);

describe('the help desk workflow in the app', () => {
  it('routes, waits for the review across a reload, and sends on yes', async () => {
    const dbName = freshDbName();
    const first = open(dbName);
    const { id } = await first.createSession('help-desk');
    const events: Event[] = [];
    await first.runs.send(id, 'I was charged twice', (event) => void events.push(event));
    expect(said(events)).toEqual([
      'triage: Triage: this goes to the billing desk.',
      'billing: Billing desk: I checked the account; the last invoice can be refunded.',
      expect.stringMatching(/^reply: Draft reply: Thank you for writing/),
      'ticket: {"ticket":"T-1019","desk":"billing"}',
      // The join's output is the two by name; it has no message.
      'join: ',
    ]);
    const request = events.find(
      (e) => e.content?.parts[0]?.functionCall?.name === 'adk_request_input',
    )!;
    expect(request.author).toBe('review');
    expect(await first.runs.interruptedRuns()).toMatchObject([
      { sessionId: id, status: 'paused', cause: 'waiting' },
    ]);

    // A reload: a new runtime over the same database answers the review.
    const second = open(dbName);
    const after: Event[] = [];
    await second.runs.respond(
      id,
      request.content!.parts[0]!.functionCall!.id!,
      'adk_request_input',
      { result: 'yes' },
      (event) => void after.push(event),
    );
    expect(said(after)).toEqual(['publish: Sent, and ticket T-1019 is closed.']);
    const session = await second.openSession(id);
    expect(session.state).toMatchObject({ desk: 'billing', ticket: 'T-1019', sent: true });
    expect(await second.runs.interruptedRuns()).toEqual([]);
  });
});
