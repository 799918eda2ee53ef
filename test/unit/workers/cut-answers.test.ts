// Answers cut short, in the runtime the worker runs (Node over fake-indexeddb) against the fixture
// model server over real HTTP: what a stopped answer had said is stored (rendered, marked stopped,
// there after a reload, in the export) and Continue carries it on; a failure mid-answer keeps the
// text streamed before it (marked cut off) and every failed answer can be retried, one path with
// Resume; a local model's stopped answer is kept too, and a flow's model node asks again.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  LocalGgufModel,
  textOf,
  type Event,
  type LocalChatEngine,
  type LocalChatParams,
} from '../../../src/index.ts';
import { cutAnswerOf } from '../../../src/core/cut-answer.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { fixtureSession, runEvents } from '../../support/fixture-agent.ts';
import { freshDbName, userMessage } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

function open(dbName = freshDbName()) {
  return new AppRuntime({
    dbName,
    locks: inProcessLocks(),
    broadcast: () => undefined,
    timing: { thinkMs: 0, chunkDelayMs: 0 },
    modelHttp: { maxRetries: 0 },
  });
}

const stored = (events: readonly Event[]) => events.filter((event) => !event.partial);
const requestsOf = (model: string) => server.requests.filter((r) => r.body?.model === model);
const ANSWER = 'The sky is blue because air scatters blue light most.';

describe('a stopped answer', () => {
  it('is stored as the agent said it, marked stopped, there after a reload and in the export', async () => {
    const dbName = freshDbName();
    const runtime = open(dbName);
    const model = 'fixture-stall-then-ok@stopped';
    const id = await fixtureSession(runtime, server.url, model);
    const first = await runEvents((onEvent) =>
      runtime.runs.send(id, 'Why is the sky blue?', (event) => {
        onEvent(event);
        if (event.partial) runtime.runs.stop(id); // the stream stalls after "The sky"
      }),
    );
    expect(first.error).toBeUndefined();
    const kept = stored(first.events).at(-1)!;
    expect(kept).toMatchObject({
      author: 'sky',
      content: { role: 'model', parts: [{ text: 'The sky' }] },
      interrupted: true,
      customMetadata: { trellis: { stopped: true } },
    });
    expect(kept.partial).toBeUndefined();
    // The same id the streamed text had: the page swaps the stream for it in place.
    expect(first.events.find((e) => e.partial)!.id).toBe(kept.id);
    expect(cutAnswerOf(kept)).toEqual({ kind: 'stopped' });

    // After a reload (a new runtime over the same database): still there, and offered to go on.
    const again = open(dbName);
    const events = (await again.openSession(id)).events;
    expect(events.at(-1)).toEqual(kept);
    expect(await again.runs.interruptedRuns()).toMatchObject([
      { sessionId: id, invocationId: kept.invocationId, cause: 'stopped' },
    ]);
    const file = JSON.parse((await again.exportSession(id)).json);
    expect(file.events.at(-1)).toMatchObject({
      interrupted: true,
      content: { parts: [{ text: 'The sky' }] },
      customMetadata: { trellis: { stopped: true } },
    });
  });

  it('is carried on by Continue (the run resumed): the model reads it as its own words so far', async () => {
    const runtime = open();
    const model = 'fixture-stall-then-ok@continue';
    const id = await fixtureSession(runtime, server.url, model);
    await runEvents((onEvent) =>
      runtime.runs.send(id, 'Why is the sky blue?', (event) => {
        onEvent(event);
        if (event.partial) runtime.runs.stop(id);
      }),
    );
    const [stopped] = await runtime.runs.interruptedRuns();
    const resumed = await runEvents((onEvent) =>
      runtime.runs.resume(id, stopped!.invocationId, onEvent),
    );
    expect(resumed.error).toBeUndefined();
    expect(stored(resumed.events).map((e) => textOf(e.content))).toEqual([ANSWER, '']);
    expect(requestsOf(model).at(-1)!.body.messages.slice(-2)).toEqual([
      { role: 'user', content: 'Why is the sky blue?' },
      { role: 'assistant', content: 'The sky' },
    ]);
    expect(await runtime.runs.interruptedRuns()).toEqual([]);
  });
});

describe('a stopped demo answer', () => {
  it('is carried on by the demo model as a model would: only the rest of its words', async () => {
    const runtime = open();
    const { id } = await runtime.createSession('writing-workflow');
    await runEvents((onEvent) =>
      runtime.runs.send(id, 'tea', (event) => {
        onEvent(event);
        if (event.partial && textOf(event.content).includes('Draft')) runtime.runs.stop(id);
      }),
    );
    const [stopped] = await runtime.runs.interruptedRuns();
    const kept = (await runtime.openSession(id)).events.at(-1)!;
    expect(cutAnswerOf(kept)).toEqual({ kind: 'stopped' });
    const resumed = await runEvents((onEvent) =>
      runtime.runs.resume(id, stopped!.invocationId, onEvent),
    );
    const [rest] = stored(resumed.events).filter((e) => e.author === kept.author && e.content);
    const draft = textOf(kept.content) + textOf(rest!.content);
    expect(textOf(kept.content)).toMatch(/^Draft:/);
    expect(textOf(rest!.content)).not.toMatch(/^Draft:/);
    expect(draft).toMatch(/^Draft: .*tea/s);
  });
});

describe('a failed answer', () => {
  it.each([
    ['a dropped connection', 'fixture-disconnect-then-ok', 'MODEL_STREAM_TRUNCATED'],
    ['a malformed stream', 'fixture-malformed-then-ok', 'MODEL_BAD_RESPONSE'],
  ])('keeps what streamed before %s, marked cut off, then says why', async (_, name, code) => {
    const runtime = open();
    const model = `${name}@kept`;
    const id = await fixtureSession(runtime, server.url, model);
    const failed = await runEvents((onEvent) =>
      runtime.runs.send(id, 'Why is the sky blue?', onEvent),
    );
    expect(failed.error).toMatchObject({ name: 'ModelError', code });
    const [, cut, error] = stored(failed.events);
    expect(cut).toMatchObject({
      author: 'sky',
      interrupted: true,
      customMetadata: { trellis: { cutOff: { errorCode: code } } },
    });
    expect(textOf(cut!.content)).toMatch(/^The sky/);
    expect(error).toMatchObject({ author: 'sky', errorCode: code });
    expect((await runtime.openSession(id)).events.slice(-2)).toEqual([cut, error]);
  });

  it.each([
    ['an answer cut off', 'fixture-disconnect-then-ok', 'MODEL_STREAM_TRUNCATED'],
    ['a rejected key (401)', 'fixture-401-then-ok', 'MODEL_AUTH'],
    ['a rate limit that asks for an hour', 'fixture-429-hour-then-ok', 'MODEL_RATE_LIMITED'],
  ])('offers %s to retry (resume), which asks the model again', async (_, name, code) => {
    const runtime = open();
    const model = `${name}@retry`;
    const id = await fixtureSession(runtime, server.url, model);
    const failed = await runEvents((onEvent) =>
      runtime.runs.send(id, 'Why is the sky blue?', onEvent),
    );
    expect(failed.error).toMatchObject({ name: 'ModelError', code });
    const [offered] = await runtime.runs.interruptedRuns();
    expect(offered).toMatchObject({
      sessionId: id,
      status: 'interrupted',
      cause: 'failed',
      error: { name: 'ModelError' },
    });
    const retried = await runEvents((onEvent) =>
      runtime.runs.resume(id, offered!.invocationId, onEvent),
    );
    expect(retried.error).toBeUndefined();
    expect(textOf(stored(retried.events)[0]!.content)).toBe(ANSWER);
    expect(requestsOf(model)).toHaveLength(2);
    expect(await runtime.runs.interruptedRuns()).toEqual([]);
  });
});

describe('a local model', () => {
  /** Streams `pieces`, then holds on until the request is aborted. */
  class StallingEngine implements LocalChatEngine {
    constructor(private readonly pieces: string[]) {}
    async createChatCompletion(params: LocalChatParams): Promise<void> {
      for (const piece of this.pieces)
        params.onData({ choices: [{ delta: { content: piece }, finish_reason: null }] });
      await new Promise((_, reject) =>
        params.abortSignal?.addEventListener('abort', () => reject(params.abortSignal!.reason)),
      );
    }
  }

  it('keeps its stopped answer too', async () => {
    const model = new LocalGgufModel({
      model: 'tiny.gguf',
      engine: new StallingEngine(['Once', ' upon', ' a time']),
    });
    const runner = new InMemoryRunner({ agent: new LlmAgent({ name: 'teller', model }) });
    const session = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    const controller = new AbortController();
    const events: Event[] = [];
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: userMessage('A story'),
      runConfig: { signal: controller.signal, streamingMode: 'sse' },
    })) {
      events.push(event);
      if (textOf(event.content).includes('time')) controller.abort();
    }
    const kept = events.at(-1)!;
    expect(kept).toMatchObject({
      author: 'teller',
      content: { parts: [{ text: 'Once upon a time' }] },
      interrupted: true,
      modelVersion: 'tiny.gguf',
    });
    expect(cutAnswerOf(kept)).toEqual({ kind: 'stopped' });
    const read = await runner.sessionService.getSession({
      appName: runner.appName,
      userId: 'u',
      sessionId: session.id,
    });
    expect(read!.events.at(-1)).toEqual(kept);
  });
});

describe('a stopped flow node', () => {
  it('asks its model again on Continue, rather than taking what it had said as its reply', async () => {
    const runtime = open();
    const { id } = await runtime.createSession('example:support');
    await runEvents((onEvent) =>
      runtime.runs.send(id, 'Is invoice INV-1042 paid?', (event) => {
        onEvent(event);
        if (event.partial && textOf(event.content)) runtime.runs.stop(id);
      }),
    );
    const kept = (await runtime.openSession(id)).events.at(-1)!;
    expect(cutAnswerOf(kept)).toEqual({ kind: 'stopped' });
    const [stopped] = await runtime.runs.interruptedRuns();
    const resumed = await runEvents((onEvent) =>
      runtime.runs.resume(id, stopped!.invocationId, onEvent),
    );
    expect(resumed.error).toBeUndefined();
    // The node's model answered again, and the flow went on to the approval of its billing step.
    expect(stored(resumed.events).some((e) => e.author === kept.author && e.content)).toBe(true);
    expect(
      stored(resumed.events).some((e) =>
        e.content?.parts.some((p) => p.functionCall?.name === 'adk_request_confirmation'),
      ),
    ).toBe(true);
  });
});
