// Execute Flow in the app: a flow runs another of the user's flows as one node, compiled with it
// (and with the flows that one runs); an edit of the inner flow is what the next run uses; a flow
// that names no flow of the app, or that would run itself through another, is refused when saved.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { textOf, type Event } from '../../../src/index.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName } from '../../support/helpers.ts';

function open() {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => {},
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

const greeter = (greeting: string, more: object[] = [], edges: object[] = []) => ({
  name: 'greeter',
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'hello', type: 'reply', message: `${greeting} {{question}}` },
    ...more,
  ],
  edges: [{ from: 'start', to: 'hello' }, ...edges],
});

const outer = (flow: string) => ({
  name: 'outer',
  nodes: [
    { id: 'start', type: 'start' },
    { id: 'ask', type: 'subflow', flow, input: 'the {{question}}' },
    { id: 'done', type: 'reply', message: 'It said: {{output}}' },
  ],
  edges: [
    { from: 'start', to: 'ask' },
    { from: 'ask', to: 'done' },
  ],
});

async function said(runtime: AppRuntime, sessionId: string, text: string): Promise<string[]> {
  const events: Event[] = [];
  await runtime.runs.send(sessionId, text, (event) => {
    if (!event.partial && event.author !== 'user' && textOf(event.content)) events.push(event);
  });
  return events.map((event) => `${event.author}: ${textOf(event.content)}`);
}

describe('Execute Flow in the app', () => {
  it('runs another saved flow as a node, and the inner flow’s edit in the next run', async () => {
    const runtime = open();
    const inner = await runtime.flows.save(JSON.stringify(greeter('Hello')));
    const { saved } = await runtime.flows.save(JSON.stringify(outer('greeter')));
    const { id } = await runtime.createSession(saved!.id);
    expect(await said(runtime, id, 'team')).toEqual([
      'ask: the team',
      'ask__hello: Hello the team',
      'done: It said: Hello the team',
    ]);
    await runtime.flows.save(JSON.stringify(greeter('Howdy')), inner.saved!.id);
    expect((await said(runtime, id, 'crew')).at(-1)).toBe('done: It said: Howdy the crew');
  });

  it('refuses a flow that names no flow of the app, or would run itself', async () => {
    const runtime = open();
    const missing = await runtime.flows.save(JSON.stringify(outer('nowhere')));
    expect(missing.saved).toBeUndefined();
    expect(missing.problems.map((p) => p.message)).toContainEqual(
      expect.stringMatching(/^there is no flow named "nowhere" \(flows: support, research-brief/),
    );
    const inner = await runtime.flows.save(JSON.stringify(greeter('Hello')));
    await runtime.flows.save(JSON.stringify(outer('greeter')));
    const looping = await runtime.flows.save(
      JSON.stringify(
        greeter(
          'Hello',
          [{ id: 'again', type: 'subflow', flow: 'outer' }],
          [{ from: 'start', to: 'again' }],
        ),
      ),
      inner.saved!.id,
    );
    expect(looping.saved).toBeUndefined();
    expect(looping.problems.map((p) => p.message).join('\n')).toMatch(
      /would run it inside itself \(greeter → outer → greeter\)/,
    );
  });
});
