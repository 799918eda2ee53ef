// What the page makes of a run that did not finish: an answer cut short shows as said, marked
// stopped or cut off; the last turn offers Continue, Retry or Resume (one path: the run resumed);
// a failure's line goes once the run got past it, and a call it left unanswered stops saying
// running; the banner lists only the open session's other runs. The workbench against the app's
// runtime in-process (fake-indexeddb), its agent on the fixture model server over real HTTP.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEventActions, type Event } from '../../../src/index.ts';
import {
  CONFIRMATION_REQUIRED,
  REQUEST_CONFIRMATION_FUNCTION,
} from '../../../src/agents/confirmation.ts';
import { chatItems } from '../../../src/ui/chat/chat-model.ts';
import { sessionView } from '../../../src/ui/workbench/session-view.ts';
import { bannerRuns, turnRunOf } from '../../../src/ui/chat/turn-run-model.ts';
import { Workbench, type RuntimeClient } from '../../../src/ui/workbench/workbench.ts';
import { AppRuntime } from '../../../workers/app.ts';
import type { InterruptedRun, RunCause } from '../../../workers/protocol.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { inProcessApi } from '../../support/app-runtime.ts';
import { fixtureSession } from '../../support/fixture-agent.ts';
import { freshDbName } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

function event(overrides: Partial<Event>): Event {
  return {
    id: 'e',
    invocationId: 'i1',
    author: 'sky',
    timestamp: 1,
    actions: createEventActions(),
    ...overrides,
  };
}

const question = event({
  id: 'q',
  author: 'user',
  content: { role: 'user', parts: [{ text: 'Why is the sky blue?' }] },
});
const said = (id: string, text: string, trellis?: object) =>
  event({
    id,
    content: { role: 'model', parts: [{ text }] },
    ...(trellis ? { interrupted: true, customMetadata: { trellis } } : {}),
  });
const failure = (id: string, code = 'MODEL_STREAM_TRUNCATED') =>
  event({ id, errorCode: code, errorMessage: `It failed (${code}).` });
const call = event({
  id: 'c',
  content: { role: 'model', parts: [{ functionCall: { id: 'call-1', name: 'echo', args: {} } }] },
});

describe('the chat of an answer cut short', () => {
  it('marks a stopped answer and one cut off, and shows the failure after it', () => {
    const items = chatItems([
      question,
      said('s', 'The sky', { stopped: true }),
      said('k', 'The sea', { cutOff: { errorCode: 'MODEL_STREAM_TRUNCATED' } }),
      failure('f'),
    ]);
    expect(items.map((item) => [item.kind, 'cut' in item ? item.cut : undefined])).toEqual([
      ['message', undefined],
      ['message', 'stopped'],
      ['message', 'cut-off'],
      ['error', undefined],
    ]);
  });

  it('drops the failure line once its run got past it (a Retry that worked)', () => {
    const retried = chatItems([question, failure('f'), said('a', 'Because of scattering.')]);
    expect(retried.map((item) => item.kind)).toEqual(['message', 'message']);
    // Another turn's failure stays: only its own run going on ends it.
    const later = chatItems([
      question,
      failure('f'),
      { ...question, id: 'q2', invocationId: 'i2' },
    ]);
    expect(later.map((item) => item.kind)).toEqual(['message', 'error', 'message']);
  });

  it('says a call its run left unanswered was interrupted, not running', () => {
    const status = (events: Event[]) =>
      chatItems(events).flatMap((item) => (item.kind === 'tool' ? [item.status] : []));
    expect(status([question, call])).toEqual(['running']);
    expect(status([question, call, failure('f', 'MCP_SERVER_UNREACHABLE')])).toEqual([
      'interrupted',
    ]);
    expect(status([question, call, { ...question, id: 'q2', invocationId: 'i2' }])).toEqual([
      'interrupted',
    ]);
  });
});

describe('the chat of an approved call not answered yet', () => {
  const asked = event({
    id: 'a',
    content: {
      role: 'model',
      parts: [
        {
          functionResponse: {
            id: 'call-1',
            name: 'echo',
            response: { error: CONFIRMATION_REQUIRED },
          },
        },
        {
          functionCall: {
            id: 'req-1',
            name: REQUEST_CONFIRMATION_FUNCTION,
            args: { originalFunctionCall: { id: 'call-1', name: 'echo', args: {} } },
          },
        },
      ],
    },
  });
  const approved = event({
    id: 'y',
    author: 'user',
    content: {
      role: 'user',
      parts: [
        {
          functionResponse: {
            id: 'req-1',
            name: REQUEST_CONFIRMATION_FUNCTION,
            response: { confirmed: true },
          },
        },
      ],
    },
  });
  const status = (events: Event[]) =>
    chatItems(events).flatMap((item) => (item.kind === 'tool' ? [item.status] : []));

  it('waits for approval until approved, then runs (no longer "awaiting approval")', () => {
    expect(status([question, call, asked])).toEqual(['awaiting approval']);
    expect(status([question, call, asked, approved])).toEqual(['running']);
  });
});

describe('the last turn’s unfinished run', () => {
  const run = (cause: RunCause, extra: Partial<InterruptedRun> = {}): InterruptedRun => ({
    appName: 'trellis',
    userId: 'u',
    sessionId: 's1',
    invocationId: 'i1',
    agentName: 'sky',
    status: 'interrupted',
    startedAt: 1,
    updatedAt: 2,
    sessionTitle: 'Sky',
    turnText: 'Why is the sky blue?',
    cause,
    ...extra,
  });
  const local = { sessionId: 's1', remote: false };

  it.each([
    [
      'a stopped answer',
      [question, said('s', 'The sky', { stopped: true })],
      'stopped',
      'Continue',
      '',
    ],
    [
      'a run stopped before a word',
      [question],
      'stopped',
      'Continue',
      'Stopped before it finished.',
    ],
    ['a failure', [question, failure('f')], 'failed', 'Retry', ''],
    [
      'a run cut off by a reload',
      [question, said('t', 'Thinking')],
      'cut-off',
      'Resume',
      'Cut off by a reload, a crash or a closed tab. Nothing saved is lost.',
    ],
  ] as const)('offers %s to carry on', (_, events, cause, action, note) => {
    expect(turnRunOf(events, [run(cause)], local)).toEqual({
      invocationId: 'i1',
      action,
      note,
      run: run(cause),
    });
  });

  it('offers Continue, in a new turn, after an answer cut at the max output tokens', () => {
    const cut = event({
      id: 'm',
      content: { role: 'model', parts: [{ text: 'The sky is blue because' }] },
      errorCode: 'MAX_TOKENS',
      errorMessage: 'The answer was cut off at the maximum number of output tokens.',
    });
    // A resumable run ends its agent with a checkpoint after the answer: still the answer's turn.
    const checkpoint = event({ id: 'e', actions: { ...createEventActions(), endOfAgent: true } });
    expect(turnRunOf([question, cut, checkpoint], [], local)).toMatchObject({ lengthCut: true });
    expect(turnRunOf([question, cut], [], local)).toEqual({
      invocationId: 'i1',
      action: 'Continue',
      note: '',
      lengthCut: true,
    });
    // A limit hit with nothing said is a failure like any other: Retry.
    expect(turnRunOf([question, failure('f', 'MAX_TOKENS')], [], local)).toMatchObject({
      action: 'Retry',
    });
    expect(turnRunOf([question, cut], [], { ...local, remote: true })).toBeUndefined();
  });

  it('offers Retry after a failure and Continue after a stop even without a record', () => {
    expect(turnRunOf([question, failure('f')], [], local)).toMatchObject({ action: 'Retry' });
    expect(turnRunOf([question, said('s', 'x', { stopped: true })], [], local)).toMatchObject({
      action: 'Continue',
    });
    // A session on an ADK server resumes only what its server lists.
    expect(turnRunOf([question, failure('f')], [], { ...local, remote: true })).toBeUndefined();
    expect(turnRunOf([question, said('a', 'Done.')], [], local)).toBeUndefined();
  });

  it('lists in the banner only the open session’s other runs, less those dismissed', () => {
    const runs = [
      run('cut-off'),
      run('cut-off', { invocationId: 'old' }),
      run('failed', { invocationId: 'gone' }),
      run('cut-off', { sessionId: 's2', invocationId: 'elsewhere' }),
    ];
    const shown = turnRunOf([question, said('t', 'Thinking')], runs, local);
    const listed = bannerRuns(runs, 's1', shown, new Set(['gone']));
    expect(listed.map((r) => r.invocationId)).toEqual(['old']);
  });
});

describe('the workbench', () => {
  let server: ModelServer;
  beforeAll(async () => (server = await startModelServer()));
  afterAll(() => server.close());

  function open() {
    const runtime = new AppRuntime({
      dbName: freshDbName(),
      locks: inProcessLocks(),
      broadcast: () => undefined,
      timing: { thinkMs: 0, chunkDelayMs: 0 },
    });
    let stopAt: ((event: Event) => boolean) | undefined;
    const client: RuntimeClient = {
      runtime: inProcessApi(runtime),
      callback: (listener) => (event) => {
        listener(event);
        if (stopAt?.(event)) workbench.stop();
      },
      onBroadcast: () => () => undefined,
    };
    const workbench = new Workbench(client);
    return { runtime, workbench, stopWhen: (test: typeof stopAt) => (stopAt = test) };
  }

  it('shows a stopped answer from the log, marked, and Continue carries it on', async () => {
    const { runtime, workbench, stopWhen } = open();
    const id = await fixtureSession(runtime, server.url, 'fixture-stall-then-ok@workbench');
    await workbench.init();
    await workbench.open(id);
    stopWhen((event) => !!event.partial);
    await workbench.send('Why is the sky blue?');
    stopWhen(undefined);
    const state = workbench.snapshot;
    expect(state.stoppedText).toBeUndefined();
    const view = sessionView(state.current!);
    expect(view.chat.at(-1)).toMatchObject({ kind: 'message', text: 'The sky', cut: 'stopped' });
    const turn = turnRunOf(view.active, state.interrupted, { sessionId: id, remote: false });
    expect(turn).toMatchObject({ action: 'Continue', note: '' });

    await workbench.resumeTurn(turn!.invocationId);
    const after = sessionView(workbench.snapshot.current!);
    expect(after.chat.filter((item) => item.kind === 'message').map((item) => item.text)).toEqual([
      'Why is the sky blue?',
      'The sky',
      'The sky is blue because air scatters blue light most.',
    ]);
    expect(
      turnRunOf(after.active, workbench.snapshot.interrupted, { sessionId: id, remote: false }),
    ).toBeUndefined();
  });

  it('follows a model that waits to retry, and forgets the wait once the answer comes', async () => {
    const { runtime, workbench } = open();
    const id = await fixtureSession(runtime, server.url, 'fixture-429-wait-then-ok@workbench');
    await workbench.init();
    await workbench.open(id);
    const seen: unknown[] = [];
    const unsubscribe = workbench.subscribe(() => {
      if (workbench.snapshot.waiting) seen.push(workbench.snapshot.waiting);
    });
    await workbench.send('Why is the sky blue?');
    unsubscribe();
    expect(seen[0]).toMatchObject({ reason: 'rate-limited', attempt: 2, delayMs: 2000 });
    expect(workbench.snapshot.waiting).toBeUndefined();
    expect(sessionView(workbench.snapshot.current!).chat.at(-1)).toMatchObject({
      text: 'The sky is blue because air scatters blue light most.',
    });
  });
});
