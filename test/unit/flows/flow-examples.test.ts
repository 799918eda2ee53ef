// The example flows the app ships, on the offline demo model: each runs end to end.

import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  textOf,
  validateFlow,
  type Content,
  type Event,
} from '../../../src/index.ts';
import { createFlowAgent, EXAMPLE_FLOWS, FLOW_DEMO_TOOLS } from '../../../src/demos/flow-demos.ts';
import { nodePath, replies } from '../../support/flows.ts';
import { collect, userMessage } from '../../support/helpers.ts';

const userId = 'ada';
const fast = { thinkMs: 0, chunkDelayMs: 0 };

async function start(name: string) {
  const flow = EXAMPLE_FLOWS.find((example) => example.name === name)!;
  const runner = new InMemoryRunner({
    agent: createFlowAgent(flow, fast),
    resumabilityConfig: { isResumable: true },
  });
  const { id: sessionId } = await runner.sessionService.createSession({
    appName: runner.appName,
    userId,
  });
  const send = (message: Content) =>
    collect(runner.runAsync({ userId, sessionId, newMessage: message }));
  const approve = (events: readonly Event[]) => {
    const request = events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    return send({
      role: 'user',
      parts: [
        { functionResponse: { id: request.id, name: request.name, response: { confirmed: true } } },
      ],
    });
  };
  const read = async () =>
    (await runner.sessionService.getSession({ appName: runner.appName, userId, sessionId }))!;
  return { runner, sessionId, send, approve, read };
}

describe('the example flows', () => {
  it('are valid with the demo tools', () => {
    for (const flow of EXAMPLE_FLOWS)
      expect(validateFlow(flow, { tools: FLOW_DEMO_TOOLS })).toEqual([]);
  });

  it('support: looks up a named invoice once approved, and finds it resolved', async () => {
    const app = await start('support');
    const paused = await app.send(userMessage('Is invoice INV-1042 paid?'));
    expect(nodePath(paused)).toEqual(['start', 'classify', 'route', 'billing']);
    const resumed = await app.approve(paused);
    expect(nodePath(resumed)).toEqual(['check', 'end']);
    expect(replies(resumed)[0]).toMatch(/billing: Invoice INV-1042 is for €\d+ .*resolved/);
    expect((await app.read()).state).toMatchObject({ category: 'billing' });
  });

  it('support: without an invoice number, retries once and hands over', async () => {
    const app = await start('support');
    const events = await app.send(userMessage('I was charged twice'));
    expect(nodePath(events)).toEqual([
      'start',
      'classify',
      'route',
      'billing',
      'check',
      'again',
      'billing',
      'check',
      'again',
    ]);
    expect(replies(events).at(-1)).toBe('again: Let me hand this to a person.');
    expect((await app.read()).state['notes']).toHaveLength(2);
  });

  it('support: routes anything else to the tech agent', async () => {
    const app = await start('support');
    const events = await app.send(userMessage('The app shows an error at login'));
    expect(nodePath(events)).toEqual(['start', 'classify', 'route', 'tech', 'end']);
  });

  it('research-brief: joins two parallel branches and saves brief.md once approved', async () => {
    const app = await start('research-brief');
    const paused = await app.send(userMessage('Sourdough baking'));
    const path = nodePath(paused);
    expect(path.slice(0, 2)).toEqual(['start', 'outline']);
    expect(path.slice(2, 4).sort()).toEqual([
      'cons@research-brief.cons',
      'pros@research-brief.pros',
    ]);
    expect(path.slice(4)).toEqual(['draft', 'save']);
    const resumed = await app.approve(paused);
    expect(nodePath(resumed)).toEqual(['report', 'end']);
    expect(replies(resumed).at(-1)).toBe('report: The brief is saved as brief.md (version 0).');
    const brief = await app.runner.artifactService!.loadArtifact({
      appName: app.runner.appName,
      userId,
      sessionId: app.sessionId,
      filename: 'brief.md',
    });
    expect(brief?.text).toContain('# Sourdough baking');
    expect(brief?.text).toContain('easy to learn');
    expect(brief?.text).toContain('results come slowly');
    expect(textOf((await app.read()).events.at(-1)!.content)).toBe('');
  });
});
