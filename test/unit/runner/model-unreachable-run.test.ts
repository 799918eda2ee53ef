// A model that cannot be reached (offline, server down) stops the run as interrupted, not
// failed: the error is in the log, the run is offered for resume, and resuming it once the
// model answers again finishes the turn.

import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  ModelUnreachableError,
  ScriptedModel,
  textOf,
  type Event,
} from '../../../src/index.ts';
import { collect, rejectionOf, userMessage } from '../../support/helpers.ts';

const userId = 'ada';

describe('a model that cannot be reached', () => {
  it('interrupts the run, which resumes once the model answers', async () => {
    let online = false;
    const model = new ScriptedModel(() => {
      if (!online) throw new ModelUnreachableError('Ollama', 'http://localhost:11434/v1', 1);
      return 'back online';
    });
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'helper', model }),
      resumabilityConfig: { isResumable: true },
    });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: runner.appName,
      userId,
    });
    const events: Event[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of runner.runAsync({
          userId,
          sessionId,
          newMessage: userMessage('hello'),
        }))
          events.push(event);
      })(),
    );
    expect(error.name).toBe('ModelUnreachableError');
    expect(events.at(-1)).toMatchObject({ author: 'helper', errorCode: 'MODEL_UNREACHABLE' });
    expect(events.at(-1)!.errorMessage).toMatch(/Ollama/);

    const [interrupted] = await runner.listInterruptedInvocations({ userId });
    expect(interrupted).toMatchObject({
      invocationId: events[0]!.invocationId,
      status: 'interrupted',
      error: { name: 'ModelUnreachableError' },
    });

    online = true;
    const resumed = await collect(
      runner.runAsync({ userId, sessionId, invocationId: interrupted!.invocationId }),
    );
    expect(resumed.map((event) => textOf(event.content))).toContain('back online');
    expect(await runner.listInterruptedInvocations({ userId })).toEqual([]);
  });
});
