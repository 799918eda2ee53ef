// Agents and tools as workflow nodes, side by side with @google/adk 2.0: an LlmAgent node takes
// its input as a user message and sees only that (ADK's default for an agent in a workflow), and
// its final answer is the node's output; a tool node is called with its input as arguments, and
// its response is the output. The same graph of the same functions, each library's own agent
// and tool classes, the same scripted model logic.

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import * as trellis from '../../../src/index.ts';

/** What the scripted model answers: what it saw, the contents' texts in order. */
const sawText = (contents: readonly { role?: string; parts?: { text?: string }[] }[]) =>
  `saw: ${contents.map((c) => `${c.role}:${(c.parts ?? []).map((p) => p.text ?? '').join('')}`).join(' | ')}`;

class AdkScripted extends adk.BaseLlm {
  constructor() {
    super({ model: 'scripted' });
  }
  connect(): never {
    throw new Error('not live');
  }
  async *generateContentAsync(request: {
    contents: { role?: string; parts?: { text?: string }[] }[];
  }) {
    yield { content: { role: 'model', parts: [{ text: sawText(request.contents) }] } };
  }
}

class TrellisScripted extends trellis.BaseLlm {
  constructor() {
    super('scripted');
  }
  async *generateContentAsync(request: trellis.LlmRequest) {
    yield { content: { role: 'model' as const, parts: [{ text: sawText(request.contents) }] } };
  }
}

interface Seen {
  author: string;
  path: string | undefined;
  output: unknown;
}

async function run(lib: 'adk' | 'trellis', build: () => unknown, text: string): Promise<Seen[]> {
  const Runner = lib === 'adk' ? adk.InMemoryRunner : trellis.InMemoryRunner;
  const runner = new Runner({ agent: build() as never, appName: 'app' });
  const session = await runner.sessionService.createSession({ appName: 'app', userId: 'u' });
  const seen: Seen[] = [];
  for await (const event of runner.runAsync({
    userId: 'u',
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text }] },
  })) {
    const e = event as {
      author: string;
      partial?: boolean;
      nodeInfo?: { path?: string };
      output?: unknown;
    };
    if (e.author !== 'user' && !e.partial)
      seen.push({ author: e.author, path: e.nodeInfo?.path, output: e.output });
  }
  return seen;
}

describe('agents and tools as workflow nodes, side by side', () => {
  it('runs an LlmAgent node on its input alone, its answer the output', async () => {
    function prepare(_ctx: unknown, input: unknown) {
      return `Write about ${input}`;
    }
    function after(_ctx: unknown, input: unknown) {
      return `after: ${input}`;
    }
    const theirs = await run(
      'adk',
      () =>
        new adk.Workflow({
          name: 'wf',
          edges: [
            [
              'START',
              prepare,
              new adk.LlmAgent({ name: 'writer', model: new AdkScripted(), instruction: 'Write.' }),
              after,
            ] as never,
          ],
        }),
      'tea',
    );
    const ours = await run(
      'trellis',
      () =>
        new trellis.Workflow({
          name: 'wf',
          edges: [
            [
              'START',
              prepare,
              new trellis.LlmAgent({
                name: 'writer',
                model: new TrellisScripted(),
                instruction: 'Write.',
              }),
              after,
            ],
          ],
        }),
      'tea',
    );
    expect(ours).toEqual(theirs);
    expect(ours.map((s) => s.output)).toEqual([
      'Write about tea',
      'saw: user:Write about tea',
      'after: saw: user:Write about tea',
    ]);
  });

  it('runs a tool node with its input as arguments, its response the output', async () => {
    function args() {
      return { a: 2, b: 3 };
    }
    function after(_ctx: unknown, input: unknown) {
      return `sum is ${JSON.stringify(input)}`;
    }
    const add = (input: { a: number; b: number }) => input.a + input.b;
    const theirs = await run(
      'adk',
      () =>
        new adk.Workflow({
          name: 'wf',
          edges: [
            [
              'START',
              args,
              new adk.FunctionTool({
                name: 'add',
                description: 'Adds',
                parameters: {
                  type: 'OBJECT',
                  properties: { a: { type: 'NUMBER' }, b: { type: 'NUMBER' } },
                } as never,
                execute: add as never,
              }),
              after,
            ] as never,
          ],
        }),
      'go',
    );
    const ours = await run(
      'trellis',
      () =>
        new trellis.Workflow({
          name: 'wf',
          edges: [
            [
              'START',
              args,
              new trellis.FunctionTool({
                name: 'add',
                description: 'Adds',
                parameters: {
                  type: 'object',
                  properties: { a: { type: 'number' }, b: { type: 'number' } },
                },
                execute: add,
              }),
              after,
            ],
          ],
        }),
      'go',
    );
    expect(ours).toEqual(theirs);
    expect(ours.at(-1)!.output).toBe('sum is {"result":5}');
  });
});
