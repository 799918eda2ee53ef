// Trellis's Workflow beside @google/adk 2.0's, on the same graphs with the same node functions:
// for each construct, what each node outputs, in order, with its author, branch and node path
// (ADK's `nodeInfo`), the text the chat shows, the state each event changes, and the final
// state must be the same. Both run in an in-memory runner from a user message.

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import * as trellis from '../../../src/index.ts';

/** What a test graph is built from: the library's own classes, so both build the same graph. */
interface Lib {
  Workflow: new (options: { name: string; edges: unknown[]; maxConcurrency?: number }) => unknown;
  ParallelWorker: new (inner: unknown, options?: { maxParallelWorkers?: number }) => unknown;
  node: (
    value: unknown,
    options: { name?: string; retryConfig?: Record<string, unknown> },
  ) => unknown;
  RequestInput: new (options: {
    message?: string;
    interruptId?: string;
    payload?: unknown;
  }) => unknown;
  JoinNode: new (options: { name: string }) => unknown;
  FunctionNode: new (name: string, handler: Handler) => unknown;
  DEFAULT_ROUTE: string;
}

type Ctx = {
  state: { get(key: string): unknown; set(key: string, value: unknown): void };
  route: unknown;
  runNode(
    node: unknown,
    input?: unknown,
    options?: Record<string, unknown>,
  ): Promise<{ output: unknown }>;
};
type Handler = (ctx: Ctx, input: unknown) => unknown;

const ADK: Lib = {
  Workflow: adk.Workflow as never,
  ParallelWorker: adk.ParallelWorker as never,
  node: adk.node as never,
  RequestInput: adk.RequestInput as never,
  JoinNode: adk.JoinNode as never,
  FunctionNode: adk.FunctionNode as never,
  DEFAULT_ROUTE: adk.DEFAULT_ROUTE,
};
const TRELLIS: Lib = {
  Workflow: trellis.Workflow as never,
  ParallelWorker: trellis.ParallelWorker as never,
  node: trellis.node as never,
  RequestInput: trellis.RequestInput as never,
  JoinNode: trellis.JoinNode as never,
  FunctionNode: trellis.FunctionNode as never,
  DEFAULT_ROUTE: trellis.DEFAULT_ROUTE,
};

interface Seen {
  author: string;
  /** Function calls and responses: name and id. */
  calls: string[];
  longRunning: string[] | undefined;
  branch: string | undefined;
  path: string | undefined;
  outputFor: string[] | undefined;
  output: unknown;
  text: string | undefined;
  stateDelta: Record<string, unknown>;
}

interface Run {
  events: Seen[];
  state: Record<string, unknown>;
}

function seen(event: {
  author?: string;
  branch?: string;
  nodeInfo?: { path?: string; outputFor?: string[] };
  output?: unknown;
  content?: {
    parts?: {
      text?: string;
      functionCall?: { name?: string; id?: string };
      functionResponse?: { name?: string; id?: string };
    }[];
  };
  actions?: { stateDelta?: Record<string, unknown> };
  longRunningToolIds?: string[];
}): Seen {
  const parts = event.content?.parts ?? [];
  const texts = parts.map((p) => p.text).filter((t) => t !== undefined);
  const calls = parts.flatMap((p) => {
    const call = p.functionCall ?? p.functionResponse;
    return call ? [`${p.functionCall ? 'call' : 'response'} ${call.name} ${call.id}`] : [];
  });
  return {
    author: event.author ?? '',
    calls,
    longRunning: event.longRunningToolIds?.length ? event.longRunningToolIds : undefined,
    branch: event.branch || undefined,
    path: event.nodeInfo?.path,
    outputFor: event.nodeInfo?.outputFor,
    output: event.output,
    text: texts.length > 0 ? texts.join('') : undefined,
    stateDelta: { ...event.actions?.stateDelta },
  };
}

type Message = string | { role: 'user'; parts: Record<string, unknown>[] };
const contentOf = (message: Message) =>
  typeof message === 'string' ? { role: 'user', parts: [{ text: message }] } : message;

async function runAdk(workflow: unknown, messages: Message[]): Promise<Run> {
  const runner = new adk.InMemoryRunner({ agent: workflow as adk.BaseAgent, appName: 'app' });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  const events: Seen[] = [];
  for (const message of messages) {
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: contentOf(message) as never,
    })) {
      if (event.author !== 'user') events.push(seen(event as never));
    }
  }
  const after = await runner.sessionService.getSession({
    appName: 'app',
    userId: 'u',
    sessionId: session.id,
  });
  return { events, state: { ...after!.state } };
}

async function runTrellis(workflow: unknown, messages: Message[]): Promise<Run> {
  const runner = new trellis.InMemoryRunner({
    agent: workflow as trellis.BaseAgent,
    appName: 'app',
    resumabilityConfig: { isResumable: true },
  });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  const events: Seen[] = [];
  for (const message of messages) {
    for await (const event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: contentOf(message) as never,
    })) {
      if (event.author !== 'user' && !event.partial) events.push(seen(event));
    }
  }
  const after = await runner.sessionService.getSession({
    appName: 'app',
    userId: 'u',
    sessionId: session.id,
  });
  return { events, state: { ...after!.state } };
}

/** Builds the graph with each library, runs both, and compares. */
async function sideBySide(
  build: (lib: Lib) => unknown,
  messages: Message[] = ['hi'],
): Promise<Run> {
  const theirs = await runAdk(build(ADK), messages);
  const ours = await runTrellis(build(TRELLIS), messages);
  expect(ours.events).toEqual(theirs.events);
  expect(ours.state).toEqual(theirs.state);
  expect(ours.events.length).toBeGreaterThan(0);
  return ours;
}

describe('Workflow, side by side with @google/adk 2.0', () => {
  it('runs a chain, each node given the output of the one before (the first the message)', async () => {
    function shout(_ctx: Ctx, input: unknown) {
      return String(input).toUpperCase();
    }
    function wrap(_ctx: Ctx, input: unknown) {
      return { said: input, length: String(input).length };
    }
    const run = await sideBySide(
      (lib) => new lib.Workflow({ name: 'chain', edges: [['START', shout, wrap]] }),
    );
    expect(run.events.map((e) => e.output)).toEqual(['HI', { said: 'HI', length: 2 }]);
    expect(run.events[1]!.path).toBe('chain.wrap');
  });

  it('follows the route a node chooses, and DEFAULT_ROUTE when none matches', async () => {
    function classify(ctx: Ctx, input: unknown) {
      const text = String(input);
      ctx.route = text.includes('bill') ? 'billing' : text.includes('bug') ? 'tech' : 'other';
      return text;
    }
    function billing(_ctx: Ctx, input: unknown) {
      return `billing: ${input}`;
    }
    function tech(_ctx: Ctx, input: unknown) {
      return `tech: ${input}`;
    }
    function human(_ctx: Ctx, input: unknown) {
      return `a person reads: ${input}`;
    }
    const run = await sideBySide(
      (lib) =>
        new lib.Workflow({
          name: 'triage',
          edges: [['START', classify, { billing, tech, [lib.DEFAULT_ROUTE]: human }]],
        }),
      ['my bill is wrong', 'a bug', 'hello'],
    );
    expect(run.events.filter((e) => e.author !== 'classify').map((e) => e.author)).toEqual([
      'billing',
      'tech',
      'human',
    ]);
  });

  it('fans out to nodes on branches of their own, and a JoinNode takes their outputs by name', async () => {
    function split(_ctx: Ctx, input: unknown) {
      return String(input);
    }
    function left(_ctx: Ctx, input: unknown) {
      return `L(${input})`;
    }
    function right(_ctx: Ctx, input: unknown) {
      return `R(${input})`;
    }
    function merge(_ctx: Ctx, input: unknown) {
      return input;
    }
    const run = await sideBySide((lib) => {
      const join = new lib.JoinNode({ name: 'join' });
      return new lib.Workflow({
        name: 'fan',
        edges: [['START', split, [left, right], join, merge]],
      });
    });
    expect(run.events.map((e) => [e.author, e.branch])).toEqual([
      ['split', undefined],
      ['left', 'left@1'],
      ['right', 'right@1'],
      ['join', undefined],
      ['merge', undefined],
    ]);
    expect(run.events.at(-1)!.output).toEqual({ left: 'L(hi)', right: 'R(hi)' });
  });

  it('starts several nodes from START, each on its own branch', async () => {
    function one(_ctx: Ctx, input: unknown) {
      return `1:${input}`;
    }
    function two(_ctx: Ctx, input: unknown) {
      return `2:${input}`;
    }
    await sideBySide((lib) => {
      const join = new lib.JoinNode({ name: 'both' });
      return new lib.Workflow({ name: 'starts', edges: [['START', [one, two], join]] });
    });
  });

  it('goes round a cycle through a route until the node chooses another', async () => {
    function count(ctx: Ctx, input: unknown) {
      const n = typeof input === 'number' ? input + 1 : 1;
      ctx.state.set('rounds', n);
      ctx.route = n < 3 ? 'again' : 'done';
      return n;
    }
    function finish(_ctx: Ctx, input: unknown) {
      return `counted to ${input}`;
    }
    const run = await sideBySide(
      (lib) =>
        new lib.Workflow({
          name: 'loop',
          edges: [['START', count, { again: count, done: finish }]],
        }),
    );
    expect(run.events.map((e) => e.output)).toEqual([1, 2, 3, 'counted to 3']);
    expect(run.state).toEqual({ rounds: 3 });
  });

  it('runs sync, async and generator handlers; every value yielded is an output, the last one counts', async () => {
    async function later(_ctx: Ctx, input: unknown) {
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `later ${input}`;
    }
    function* steps(_ctx: Ctx, input: unknown) {
      yield `step 1 of ${input}`;
      yield `step 2 of ${input}`;
    }
    async function* stream(_ctx: Ctx, input: unknown) {
      yield `got ${input}`;
      await new Promise((resolve) => setTimeout(resolve, 1));
      yield { final: input };
    }
    function last(_ctx: Ctx, input: unknown) {
      return input;
    }
    const run = await sideBySide(
      (lib) =>
        new lib.Workflow({ name: 'handlers', edges: [['START', later, steps, stream, last]] }),
    );
    expect(run.events.at(-1)!.output).toEqual({ final: 'step 2 of later hi' });
  });

  it('keeps what nodes write to the state as state deltas, also from a node that returns nothing', async () => {
    function remember(ctx: Ctx, input: unknown) {
      ctx.state.set('topic', input);
      ctx.state.set('count', 1);
    }
    function read(ctx: Ctx) {
      ctx.state.set('count', Number(ctx.state.get('count') ?? 0) + 1);
      return `topic was ${String(ctx.state.get('topic'))}`;
    }
    const run = await sideBySide(
      (lib) => new lib.Workflow({ name: 'stateful', edges: [['START', remember, read]] }),
    );
    expect(run.events[0]).toMatchObject({
      output: undefined,
      stateDelta: { topic: 'hi', count: 1 },
    });
    expect(run.state).toEqual({ topic: 'hi', count: 2 });
  });

  it('shows a Content a node returns as a message without an output', async () => {
    function say() {
      return { role: 'model', parts: [{ text: 'Hello there' }] };
    }
    function after(_ctx: Ctx, input: unknown) {
      return `input was ${JSON.stringify(input ?? null)}`;
    }
    await sideBySide((lib) => new lib.Workflow({ name: 'talk', edges: [['START', say, after]] }));
  });

  it('runs a workflow as a node of another: its nodes under its path, its output the next input', async () => {
    function lower(_ctx: Ctx, input: unknown) {
      return String(input).toLowerCase();
    }
    function exclaim(_ctx: Ctx, input: unknown) {
      return `${input}!`;
    }
    function before(_ctx: Ctx, input: unknown) {
      return `[${input}]`;
    }
    function after(_ctx: Ctx, input: unknown) {
      return `after ${input}`;
    }
    const run = await sideBySide(
      (lib) => {
        const inner = new lib.Workflow({ name: 'inner', edges: [['START', lower, exclaim]] });
        return new lib.Workflow({ name: 'outer', edges: [['START', before, inner, after]] });
      },
      ['HEY'],
    );
    expect(run.events.map((e) => e.path)).toEqual([
      'outer.before',
      'outer.inner.lower',
      'outer.inner.exclaim',
      'outer.after',
    ]);
  });

  it('writes the workflow output once more when the last event did not carry it', async () => {
    function first(_ctx: Ctx, input: unknown) {
      return `first ${input}`;
    }
    function quiet(ctx: Ctx) {
      ctx.state.set('quiet', true);
    }
    // Two terminal nodes of which only one gives an output: the workflow's output is its.
    await sideBySide(
      (lib) => new lib.Workflow({ name: 'tail', edges: [['START', [first, quiet]]] }),
    );
  });
});

describe('retries, concurrency, parallel workers and dynamic runs, side by side', () => {
  it('retries a failing node as its RetryConfig says, then goes on', async () => {
    let failures = 0;
    function flaky(_ctx: Ctx, input: unknown) {
      if (failures++ % 3 < 2) throw new Error('not yet');
      return `worked on ${input}`;
    }
    function after(_ctx: Ctx, input: unknown) {
      return `after: ${input}`;
    }
    const run = await sideBySide((lib) => {
      const retried = lib.node(flaky, {
        retryConfig: { maxAttempts: 3, initialDelay: 0, jitter: 0 },
      });
      return new lib.Workflow({ name: 'retry', edges: [['START', retried, after]] });
    });
    expect(run.events.map((e) => e.output)).toEqual(['worked on hi', 'after: worked on hi']);
  });

  it("gives up after maxAttempts, with the node's error", async () => {
    for (const [lib, Runner] of [
      [ADK, adk.InMemoryRunner],
      [TRELLIS, trellis.InMemoryRunner],
    ] as const) {
      let calls = 0;
      function hopeless(): never {
        calls++;
        throw new Error('still down');
      }
      const workflow = new lib.Workflow({
        name: 'giveup',
        edges: [
          ['START', lib.node(hopeless, { retryConfig: { maxAttempts: 2, initialDelay: 0 } })],
        ],
      });
      const runner = new Runner({ agent: workflow as never, appName: 'app' });
      const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
      await expect(
        (async () => {
          for await (const _event of runner.runAsync({
            userId: 'u',
            sessionId: session.id,
            newMessage: { role: 'user', parts: [{ text: 'go' }] },
          }));
        })(),
      ).rejects.toThrow('still down');
      expect(calls).toBe(2);
    }
  });

  it('runs at most maxConcurrency nodes at once', async () => {
    const log: string[] = [];
    const slow = (name: string) =>
      ({
        async [name](_ctx: Ctx, input: unknown) {
          log.push(`${name} starts`);
          await new Promise((resolve) => setTimeout(resolve, 5));
          log.push(`${name} ends`);
          return `${name}(${input})`;
        },
      })[name]!;
    const [a, b, c] = [slow('a'), slow('b'), slow('c')];
    await sideBySide((lib) => {
      const join = new lib.JoinNode({ name: 'join' });
      return new lib.Workflow({
        name: 'limited',
        maxConcurrency: 1,
        edges: [['START', [a, b, c], join]],
      });
    });
    // One at a time, in both.
    expect(log.slice(0, 6)).toEqual([
      'a starts',
      'a ends',
      'b starts',
      'b ends',
      'c starts',
      'c ends',
    ]);
    expect(log.slice(6)).toEqual(log.slice(0, 6));
  });

  it('runs a ParallelWorker once per item, each on its own branch and path, outputs in order', async () => {
    function items(_ctx: Ctx, input: unknown) {
      return String(input).split(' ');
    }
    async function shout(_ctx: Ctx, input: unknown) {
      await new Promise((resolve) => setTimeout(resolve, String(input).length));
      return String(input).toUpperCase();
    }
    function joined(_ctx: Ctx, input: unknown) {
      return (input as string[]).join('-');
    }
    const run = await sideBySide(
      (lib) =>
        new lib.Workflow({
          name: 'each',
          edges: [
            ['START', items, new lib.ParallelWorker(shout, { maxParallelWorkers: 2 }), joined],
          ],
        }),
      ['one three five'],
    );
    expect(run.events.at(-1)!.output).toBe('ONE-THREE-FIVE');
    expect(
      run.events
        .filter((e) => e.path?.startsWith('each.shout.'))
        .map((e) => e.path)
        .sort(),
    ).toEqual(['each.shout.shout@0', 'each.shout.shout@1', 'each.shout.shout@2']);
  });

  it('runs nodes from inside a node with ctx.runNode, numbered per name', async () => {
    function double(_ctx: Ctx, input: unknown) {
      return Number(input) * 2;
    }
    async function plan(ctx: Ctx, input: unknown) {
      const first = await ctx.runNode(double, String(input).length);
      const second = await ctx.runNode(double, first.output);
      return `twice doubled: ${second.output}`;
    }
    const run = await sideBySide(
      (lib) => new lib.Workflow({ name: 'dynamic', edges: [['START', plan]] }),
      ['abc'],
    );
    expect(run.events.map((e) => [e.path, e.output])).toEqual([
      ['dynamic.plan.double@1', 6],
      ['dynamic.plan.double@2', 12],
      ['dynamic.plan', 'twice doubled: 12'],
    ]);
  });
});

describe('RequestInput, side by side with @google/adk 2.0', () => {
  const answer = (id: string, response: Record<string, unknown>): Message => ({
    role: 'user',
    parts: [{ functionResponse: { id, name: 'adk_request_input', response } }],
  });

  it("pauses with an adk_request_input call; the answer is the node's output and the run goes on", async () => {
    function draft(ctx: Ctx, input: unknown) {
      ctx.state.set('draft', `A post about ${input}`);
      return `A post about ${input}`;
    }
    function publish(ctx: Ctx, input: unknown) {
      ctx.state.set('published', true);
      return `published with ${JSON.stringify(input)}`;
    }
    const run = await sideBySide(
      (lib) => {
        function* review(_ctx: Ctx, input: unknown) {
          yield new lib.RequestInput({ message: `Publish "${input}"?`, interruptId: 'review-1' });
        }
        return new lib.Workflow({ name: 'writer', edges: [['START', draft, review, publish]] });
      },
      ['cats', answer('review-1', { approved: true, note: 'fine' })],
    );
    expect(run.events.map((e) => [e.author, e.calls, e.output])).toEqual([
      ['draft', [], 'A post about cats'],
      ['review', ['call adk_request_input review-1'], undefined],
      // The workflow's own event: it waits on review-1 too (and the input it waits with).
      ['writer', [], undefined],
      ['publish', [], 'published with {"approved":true,"note":"fine"}'],
    ]);
    expect(run.state).toEqual({ draft: 'A post about cats', published: true });
  });

  it('reads a { result } answer as its value', async () => {
    function choose(_ctx: Ctx, input: unknown) {
      return `chose ${JSON.stringify(input)}`;
    }
    await sideBySide(
      (lib) => {
        function* ask() {
          yield new lib.RequestInput({ message: 'Which one?', interruptId: 'pick' });
        }
        return new lib.Workflow({ name: 'picker', edges: [['START', ask, choose]] });
      },
      ['go', answer('pick', { result: '{"n":2}' })],
    );
  });

  it('takes a plain message as the answer to the request waiting', async () => {
    function publish(_ctx: Ctx, input: unknown) {
      return `published with ${JSON.stringify(input)}`;
    }
    const run = await sideBySide(
      (lib) => {
        function* review(_ctx: Ctx, input: unknown) {
          yield new lib.RequestInput({ message: `Publish "${input}"?`, interruptId: 'review-1' });
        }
        return new lib.Workflow({ name: 'writer', edges: [['START', review, publish]] });
      },
      ['cats', { role: 'user', parts: [{ text: 'yes, go ahead' }] }],
    );
    expect(run.events.at(-1)!.output).toBe('published with "yes, go ahead"');
  });
});

describe('Workflow graphs refused as ADK refuses them', () => {
  const a = (_ctx: Ctx, input: unknown) => input;
  function b(_ctx: Ctx, input: unknown) {
    return input;
  }
  function c(_ctx: Ctx, input: unknown) {
    return input;
  }
  const cases: [string, (lib: Lib) => unknown[]][] = [
    ['a cycle with no route out', () => [['START', b, c, b]]],
    [
      'a node no path reaches',
      () => [
        ['START', b],
        [c, b],
      ],
    ],
    [
      'an edge twice',
      () => [
        ['START', b],
        ['START', b],
      ],
    ],
    ['a routed edge from START', () => [['START', { x: b }]]],
    ['two nodes of one name', () => [['START', b, new TRELLIS.FunctionNode('b', a)]]],
  ];
  for (const [what, edges] of cases) {
    it(`refuses ${what}`, () => {
      expect(() => new adk.Workflow({ name: 'bad', edges: edges(ADK) as never })).toThrow();
      expect(() => new trellis.Workflow({ name: 'bad', edges: edges(TRELLIS) as never })).toThrow(
        trellis.InvalidRequestError,
      );
    });
  }
});

describe('a node that fails', () => {
  function ok(_ctx: Ctx, input: unknown) {
    return `ok ${input}`;
  }
  function broken(): never {
    throw new Error('the service said no');
  }
  function never(_ctx: Ctx, input: unknown) {
    return input;
  }

  it('ends the run with an error event of the node, at its path, as ADK writes it; nothing after it runs', async () => {
    const stored: unknown[][] = [];
    for (const [lib, Runner] of [
      [ADK, adk.InMemoryRunner],
      [TRELLIS, trellis.InMemoryRunner],
    ] as const) {
      const workflow = new lib.Workflow({ name: 'fails', edges: [['START', ok, broken, never]] });
      const runner = new Runner({ agent: workflow as never, appName: 'app' });
      const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
      await expect(
        (async () => {
          for await (const _event of runner.runAsync({
            userId: 'u',
            sessionId: session.id,
            newMessage: { role: 'user', parts: [{ text: 'hi' }] },
          }));
        })(),
      ).rejects.toThrow('the service said no');
      const after = await runner.sessionService.getSession({
        appName: 'app',
        userId: 'u',
        sessionId: session.id,
      });
      stored.push(
        (after!.events as trellis.Event[])
          .filter((e) => e.author !== 'user')
          .map((e) => [e.author, e.nodeInfo?.path, e.errorMessage]),
      );
    }
    expect(stored[1]).toEqual(stored[0]);
    expect(stored[1]).toEqual([
      ['ok', 'fails.ok', undefined],
      ['broken', 'fails.broken', 'the service said no'],
    ]);
  });
});
