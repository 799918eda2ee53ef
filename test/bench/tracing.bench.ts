// Issue 17's budgets for traces:
// - recording spans adds ≤ 10% to the cost of a turn in memory at 1,000 turns: the benchmark's
//   turn (a tool call and an answer from an instant model) on InMemoryRunner traced (its default)
//   and untraced, two sessions run turn by turn in lockstep, so the machine's noise falls on both;
// - opening the trace of the last turn of a 100k-event session (its spans and its events, as the
//   Trace view reads them) costs ≤ 2× opening it at 1k events: the read starts at the
//   invocation's first event and never reads the log before it. IndexedDB (fake-indexeddb).
//
// Alone: npx vitest run --project bench test/bench/tracing.bench.ts (about 4 minutes).

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  FunctionTool,
  IndexedDbSessionService,
  IndexedDbTraceService,
  InMemoryRunner,
  LlmAgent,
  Runner,
  ScriptedModel,
  createEvent,
  functionCallResponse,
  textResponse,
  type LlmRequest,
} from '../../src/index.ts';
import { IndexedDbAppStore } from '../../src/store/app-store.ts';
import { AppTraces } from '../../workers/traces.ts';
import { APP_NAME, USER_ID } from '../../workers/sessions/sessions.ts';
import { nodeMachine } from './machine.ts';
import { collectGarbage, pairedRatio, summarize, time } from './measure.ts';
import { textTable, updateBenchmarksMd } from './report.ts';
import { figure, mergeResults, type BenchResult } from './results-file.ts';
import { TOOL_ARGS, TOOL_NAME, add, userMessage } from './turns/turn-shape.ts';

const TURN_GROUP = 'tracing cost per turn';
const OPEN_GROUP = 'opening a trace';
const TURNS = 1_000;
const ROUNDS = 9;
const MAX_TRACING_COST = 1.1;
const OPEN_LENGTHS = [1_000, 100_000];
const OPENS = 30;
const MAX_OPEN_GROWTH = 2;

function calc() {
  const model = new ScriptedModel((request: LlmRequest) =>
    request.contents.at(-1)?.parts.some((part) => 'functionResponse' in part)
      ? textResponse('It is 5.')
      : functionCallResponse([TOOL_NAME, TOOL_ARGS]),
  );
  const tool = new FunctionTool({
    name: TOOL_NAME,
    description: 'Adds two numbers',
    parameters: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' } },
      required: ['a', 'b'],
    },
    execute: add,
  });
  return { model, agent: new LlmAgent({ name: 'calc', model, tools: [tool] }) };
}

/** A session of its own on InMemoryRunner, traced or not; `turn` runs the next turn. */
async function turnSession(tracing: boolean) {
  const { model, agent } = calc();
  const runner = new InMemoryRunner({ agent, appName: 'bench', tracing });
  const session = await runner.sessionService.createSession({ appName: 'bench', userId: 'u' });
  return async (turn: number) => {
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: userMessage(turn) }] },
    }))
      void event;
    model.requests.length = 0;
  };
}

/**
 * Milliseconds per turn over sessions of TURNS turns, traced and untraced, run in lockstep: turn
 * i of one, then turn i of the other (which goes first alternates), each timed on its own, so
 * that the machine's noise falls on both alike.
 */
async function perTurnPair(): Promise<{ traced: number; untraced: number }> {
  const traced = await turnSession(true);
  const untraced = await turnSession(false);
  let tracedMs = 0;
  let untracedMs = 0;
  for (let turn = 0; turn < TURNS; turn++) {
    const order = turn % 2 === 0 ? [true, false] : [false, true];
    for (const tracing of order) {
      const started = performance.now();
      await (tracing ? traced : untraced)(turn);
      const took = performance.now() - started;
      if (tracing) tracedMs += took;
      else untracedMs += took;
    }
  }
  return { traced: tracedMs / TURNS, untraced: untracedMs / TURNS };
}

let databases = 0;

/** A session of `length` events (written straight to the store) whose last turn ran, traced. */
async function tracedSession(length: number) {
  const dbName = `bench-traces-${databases++}`;
  const sessions = new IndexedDbSessionService({ dbName });
  const traces = new IndexedDbTraceService({ dbName });
  const session = await sessions.createSession({ appName: APP_NAME, userId: USER_ID });
  // Four events a turn (the real one below writes four too).
  for (let i = 0; i < length - 4; i++) {
    const first = i % 4 === 0;
    await sessions.appendEvent({
      session,
      event: createEvent({
        invocationId: `e-${Math.floor(i / 4)}`,
        author: first ? 'user' : 'calc',
        content: { role: first ? 'user' : 'model', parts: [{ text: `message ${i}` }] },
      }),
    });
  }
  const { agent } = calc();
  const runner = new Runner({
    appName: APP_NAME,
    agent,
    sessionService: sessions,
    traceService: traces,
  });
  let invocationId = '';
  for await (const event of runner.runAsync({
    userId: USER_ID,
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text: 'what is 2 + 3?' }] },
  }))
    invocationId = event.invocationId;
  const store = new IndexedDbAppStore({ dbName });
  const app = new AppTraces(sessions, traces, store);
  return {
    open: () => app.trace(session.id, invocationId),
    close: async () => {
      await sessions.close();
      await traces.close();
      await store.close();
    },
  };
}

describe('traces', () => {
  it(
    'the cost of recording spans per turn, and of opening the last turn’s trace',
    { timeout: 900_000 },
    async () => {
      const results: BenchResult[] = [];

      await perTurnPair(); // warm-up
      const traced: number[] = [];
      const untraced: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const pair = await perTurnPair();
        traced.push(pair.traced);
        untraced.push(pair.untraced);
      }
      const cost = pairedRatio(traced, untraced);
      const turnParams = { turns: TURNS, measured: 'ms per turn, in memory' };
      results.push(
        figure(TURN_GROUP, 'InMemoryRunner, untraced', turnParams, 'ms', summarize(untraced)),
        figure(TURN_GROUP, 'InMemoryRunner, traced', turnParams, 'ms', summarize(traced), {
          ratio: { vs: 'InMemoryRunner, untraced', ...cost },
          target: { text: `≤ ${MAX_TRACING_COST}× untraced`, met: cost.median <= MAX_TRACING_COST },
        }),
      );

      // Both sessions built first, then opened in turn (the same noise on both); the garbage
      // their building left is collected before.
      const sessions: Awaited<ReturnType<typeof tracedSession>>[] = [];
      for (const length of OPEN_LENGTHS) sessions.push(await tracedSession(length));
      const opens = new Map<number, number[]>(OPEN_LENGTHS.map((length) => [length, []]));
      try {
        for (const session of sessions) {
          expect((await session.open()).spans.length).toBeGreaterThan(3);
          for (let i = 0; i < 5; i++) await session.open();
        }
        collectGarbage();
        const pairs = OPEN_LENGTHS.map((length, index) => ({ length, session: sessions[index]! }));
        for (let i = 0; i < OPENS; i++)
          for (const { length, session } of i % 2 === 0 ? pairs : [...pairs].reverse())
            opens.get(length)!.push(await time(session.open));
      } finally {
        for (const session of sessions) await session.close();
      }
      const small = opens.get(OPEN_LENGTHS[0]!)!;
      const large = opens.get(OPEN_LENGTHS[1]!)!;
      const growth = pairedRatio(large, small);
      for (const length of OPEN_LENGTHS) {
        const isLarge = length === OPEN_LENGTHS[1];
        results.push(
          figure(
            OPEN_GROUP,
            'last turn’s spans and events (IndexedDB, fake-indexeddb)',
            { events: length, measured: 'ms per open' },
            'ms',
            summarize(opens.get(length)!),
            isLarge
              ? {
                  ratio: { vs: `${OPEN_LENGTHS[0]} events`, ...growth },
                  target: {
                    text: `at 100k events ≤ ${MAX_OPEN_GROWTH}× at 1k`,
                    met: growth.median <= MAX_OPEN_GROWTH,
                  },
                }
              : {},
          ),
        );
      }
      console.log(textTable(results));
      for (const group of [TURN_GROUP, OPEN_GROUP]) {
        const file = await mergeResults(
          'node',
          { machine: nodeMachine(), date: new Date().toISOString(), node: process.version },
          group,
          results.filter((result) => result.group === group),
        );
        await updateBenchmarksMd(file);
      }
    },
  );
});
