// A node's time limit and schemas (`timeout`, `inputSchema`, `outputSchema`), side by side with
// @google/adk 2.0: the same graph of the same functions, each library's own `node()`. A node past
// its timeout, or given or giving a value that does not fit, fails with ADK's error and message;
// a Zod schema's parse result is what the node gets or gives.

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as trellis from '../../../src/index.ts';

type Lib = 'adk' | 'trellis';
type Build = (node: (value: unknown, options: Record<string, unknown>) => unknown) => unknown[];

interface Outcome {
  /** Each stored event of the nodes: author, path, output, error message. */
  events: unknown[][];
  /** What the run threw, if it did. */
  error: string | undefined;
}

async function run(lib: Lib, edges: Build): Promise<Outcome> {
  const node = (lib === 'adk' ? adk.node : trellis.node) as never;
  const Workflow = lib === 'adk' ? adk.Workflow : trellis.Workflow;
  const Runner = lib === 'adk' ? adk.InMemoryRunner : trellis.InMemoryRunner;
  const runner = new Runner({
    agent: new Workflow({ name: 'wf', edges: edges(node) as never }) as never,
    appName: 'app',
  });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  let error: string | undefined;
  try {
    for await (const _event of runner.runAsync({
      userId: 'u',
      sessionId: session.id,
      newMessage: { role: 'user', parts: [{ text: 'go' }] },
    }));
  } catch (thrown) {
    error = (thrown as Error).message;
  }
  const after = await runner.sessionService.getSession({
    appName: 'app',
    userId: 'u',
    sessionId: session.id,
  });
  const events = (after!.events as trellis.Event[])
    .filter((e) => e.author !== 'user')
    .map((e) => [e.author, e.nodeInfo?.path, e.output, e.errorMessage]);
  return { events, error };
}

async function sideBySide(edges: Build): Promise<Outcome> {
  const theirs = await run('adk', edges);
  const ours = await run('trellis', edges);
  expect(ours).toEqual(theirs);
  return ours;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('node timeouts and schemas, side by side with @google/adk 2.0', () => {
  it('fails a node past its timeout, with ADK’s error; nothing after it runs', async () => {
    async function slow() {
      await sleep(400);
      return 'late';
    }
    function after(_ctx: unknown, input: unknown) {
      return `after ${input}`;
    }
    const outcome = await sideBySide((node) => [['START', node(slow, { timeout: 0.05 }), after]]);
    expect(outcome.error).toBe("Node 'slow' timed out after 0.05 seconds.");
    expect(outcome.events).toEqual([
      ['slow', 'wf.slow', undefined, "Node 'slow' timed out after 0.05 seconds."],
    ]);
  });

  it('lets a node that finishes in time go on', async () => {
    async function quick() {
      await sleep(5);
      return 'in time';
    }
    const outcome = await sideBySide((node) => [['START', node(quick, { timeout: 5 })]]);
    expect(outcome.events).toEqual([['quick', 'wf.quick', 'in time', undefined]]);
  });

  it('retries a timed-out attempt under its RetryConfig', async () => {
    const attempts: Record<Lib, number> = { adk: 0, trellis: 0 };
    let lib: Lib = 'adk';
    async function flaky() {
      attempts[lib]++;
      if (attempts[lib] === 1) await sleep(400);
      return `attempt ${attempts[lib]}`;
    }
    const edges: Build = (node) => [
      [
        'START',
        node(flaky, {
          timeout: 0.05,
          retryConfig: { maxAttempts: 2, initialDelay: 0, jitter: 0 },
        }),
      ],
    ];
    const theirs = await run('adk', edges);
    lib = 'trellis';
    const ours = await run('trellis', edges);
    expect(ours).toEqual(theirs);
    expect(ours.events).toEqual([['flaky', 'wf.flaky', 'attempt 2', undefined]]);
  });

  it('gives a node the parse of its Zod inputSchema, and fails one whose input does not fit', async () => {
    function numbers() {
      return { n: '3' };
    }
    function twice(_ctx: unknown, input: { n: number }) {
      return input.n * 2;
    }
    const coerced = await sideBySide((node) => [
      ['START', numbers, node(twice, { inputSchema: z.object({ n: z.coerce.number() }) })],
    ]);
    expect(coerced.events.at(-1)).toEqual(['twice', 'wf.twice', 6, undefined]);

    const refused = await sideBySide((node) => [
      ['START', numbers, node(twice, { inputSchema: z.object({ n: z.number() }) })],
    ]);
    expect(refused.error).toMatch(/^Node 'twice' input does not match its inputSchema: /);
    expect(refused.events.map((e) => e[0])).toEqual(['numbers', 'twice']);
  });

  it('checks what a node gives against its Zod outputSchema', async () => {
    function label() {
      return { label: 'x', extra: true };
    }
    function next(_ctx: unknown, input: unknown) {
      return JSON.stringify(input);
    }
    const stripped = await sideBySide((node) => [
      ['START', node(label, { outputSchema: z.object({ label: z.string() }) }), next],
    ]);
    expect(stripped.events.map((e) => e[2])).toEqual([{ label: 'x' }, '{"label":"x"}']);

    const refused = await sideBySide((node) => [
      ['START', node(label, { outputSchema: z.object({ label: z.number() }) }), next],
    ]);
    expect(refused.error).toMatch(/^Node 'label' output does not match its outputSchema: /);
    expect(refused.events.map((e) => e[0])).toEqual(['label']);
  });
});

describe('a node with a JSON Schema', () => {
  it('takes what fits, and fails a node whose output does not, naming what is wrong', async () => {
    const schema = {
      type: 'object',
      properties: { score: { type: 'number', minimum: 0 } },
      required: ['score'],
    };
    const good = await run('trellis', (node) => [
      ['START', node(() => ({ score: 2 }), { name: 'rate', outputSchema: schema })],
    ]);
    expect(good.events).toEqual([['rate', 'wf.rate', { score: 2 }, undefined]]);
    const bad = await run('trellis', (node) => [
      ['START', node(() => ({ score: -1 }), { name: 'rate', outputSchema: schema })],
    ]);
    expect(bad.error).toBe(
      "Node 'rate' output does not match its outputSchema: output.score should be ≥ 0",
    );
  });

  it('aborts an agent node’s model call at its timeout', async () => {
    let aborted = false;
    class HangingModel extends trellis.BaseLlm {
      constructor() {
        super('hanging');
      }
      // eslint-disable-next-line require-yield
      async *generateContentAsync(
        _request: trellis.LlmRequest,
        _stream?: boolean,
        options?: { signal?: AbortSignal },
      ) {
        await new Promise<void>((_, reject) =>
          options!.signal!.addEventListener('abort', () => {
            aborted = true;
            reject(new DOMException('aborted', 'AbortError'));
          }),
        );
      }
    }
    const agent = new trellis.LlmAgent({ name: 'thinker', model: new HangingModel() });
    const outcome = await run('trellis', (node) => [['START', node(agent, { timeout: 0.05 })]]);
    expect(outcome.error).toBe("Node 'thinker' timed out after 0.05 seconds.");
    expect(aborted).toBe(true);
  });

  it('refuses a timeout that is not a number of seconds above 0', () => {
    expect(() => trellis.node(() => 1, { name: 'n', timeout: 0 })).toThrow(
      trellis.InvalidRequestError,
    );
  });
});
