// Only Stop cancels a run. An AbortError nobody asked for (a tool's or a model's own request that
// gave up) is a failure like any other: an error the caller gets and an error event in the log,
// never a run that ends silently.

import { describe, expect, it } from 'vitest';
import {
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  ScriptedModel,
  functionCallResponse,
  type Event,
} from '../../../src/index.ts';
import { collect, rejectionOf, userMessage } from '../../support/helpers.ts';

const gaveUp = () => new DOMException('The request gave up.', 'AbortError');

async function runnerFor(agent: LlmAgent) {
  const runner = new InMemoryRunner({ agent, appName: 'app' });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  const run = (signal?: AbortSignal) =>
    runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage('go'),
      ...(signal ? { runConfig: { signal } } : {}),
    });
  return { run };
}

describe('cancellation', () => {
  it('fails the run on a tool’s own AbortError as on any tool error, its response logged', async () => {
    const fetcher = new FunctionTool({
      name: 'fetch_page',
      description: 'x',
      execute: () => {
        throw gaveUp();
      },
    });
    const model = new ScriptedModel(() => functionCallResponse(['fetch_page', {}]));
    const { run } = await runnerFor(new LlmAgent({ name: 'agent', model, tools: [fetcher] }));
    const events: Event[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of run()) events.push(event);
      })(),
    );
    expect(error.name).toBe('ToolError');
    expect(error.message).toMatch(/The request gave up/);
    const response = events
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionResponse);
    expect(response?.functionResponse?.response).toMatchObject({
      error: expect.stringMatching(/gave up/),
    });
    expect(events.at(-1)).toMatchObject({ errorMessage: error.message });
  });

  it('fails the run, with an error event, on a model’s own AbortError', async () => {
    const model = new ScriptedModel(() => {
      throw gaveUp();
    });
    const { run } = await runnerFor(new LlmAgent({ name: 'agent', model }));
    const events: Event[] = [];
    const error = await rejectionOf(
      (async () => {
        for await (const event of run()) events.push(event);
      })(),
    );
    expect(error.name).toBe('ModelError');
    expect(error.message).toMatch(/The request gave up/);
    expect(events.at(-1)).toMatchObject({ errorMessage: error.message });
  });

  it('ends a run quietly when Stop cancels it, with no error event', async () => {
    const controller = new AbortController();
    const slow = new FunctionTool({
      name: 'slow',
      description: 'x',
      execute: () => {
        controller.abort();
        throw controller.signal.reason;
      },
    });
    const model = new ScriptedModel(() => functionCallResponse(['slow', {}]));
    const { run } = await runnerFor(new LlmAgent({ name: 'agent', model, tools: [slow] }));
    const events = await collect(run(controller.signal));
    expect(events.some((event) => event.errorMessage !== undefined)).toBe(false);
  });
});
