// The contents of a model request are the request's own: whatever a model (or the code it hands
// the request to) does with them never changes another request, and a kept request shows what it
// was sent with for good. ScriptedModel gets a view lent of the cache's contents
// (agents/lent-contents), any other model a copy: both are checked here.

import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { lendContents } from '../../../src/agents/lent-contents.ts';
import type { Content } from '../../../src/core/content.ts';
import {
  BaseLlm,
  FunctionTool,
  InMemoryRunner,
  LlmAgent,
  ScriptedModel,
  functionCallResponse,
  textResponse,
  type LlmRequest,
  type LlmResponse,
} from '../../../src/index.ts';
import { collect, userMessage } from '../../support/helpers.ts';

/** The contents as JSON, with the calls' random ids numbered in order of appearance. */
function shown(contents: readonly Content[]): string {
  const ids = new Map<string, string>();
  return JSON.stringify(contents).replace(/adk-[0-9a-f-]+/g, (id) => {
    if (!ids.has(id)) ids.set(id, `call-${ids.size}`);
    return ids.get(id)!;
  });
}

const text = (value: string): Content => Object.freeze({ role: 'user', parts: [{ text: value }] });

/** What a model's code may do to the contents of the request it was given. */
const changes: { name: string; change: (request: LlmRequest) => void }[] = [
  { name: 'push', change: (r) => r.contents.push(text('pushed')) },
  { name: 'unshift', change: (r) => r.contents.unshift(text('first')) },
  { name: 'splice in the middle', change: (r) => r.contents.splice(1, 1, text('spliced')) },
  { name: 'assign an element', change: (r) => (r.contents[0] = text('assigned')) },
  { name: 'assign past the end', change: (r) => (r.contents[r.contents.length + 2] = text('far')) },
  { name: 'empty by length', change: (r) => (r.contents.length = 0) },
  { name: 'pop', change: (r) => r.contents.pop() },
  { name: 'reverse', change: (r) => r.contents.reverse() },
  { name: 'sort', change: (r) => r.contents.sort((a, b) => a.role.localeCompare(b.role)) },
  { name: 'fill', change: (r) => r.contents.fill(text('filled')) },
  { name: 'delete an element', change: (r) => delete r.contents[0] },
  { name: 'assign new contents', change: (r) => (r.contents = [text('replaced')]) },
  { name: 'freeze', change: (r) => Object.freeze(r.contents) },
];

/** A model written elsewhere (not one of ours): it keeps its requests, as ScriptedModel does. */
class KeepingModel extends BaseLlm {
  readonly requests: LlmRequest[] = [];

  constructor(private readonly answer: (request: LlmRequest) => LlmResponse) {
    super('keeping');
  }

  override async *generateContentAsync(request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.requests.push(request);
    yield this.answer(request);
  }
}

const models = [
  {
    name: 'ScriptedModel',
    make: (answer: (request: LlmRequest) => LlmResponse) => new ScriptedModel(answer),
  },
  {
    name: 'a BaseLlm of its own',
    make: (answer: (request: LlmRequest) => LlmResponse) => new KeepingModel(answer),
  },
];

/**
 * Three turns of a tool call and an answer (six requests), `change` done to every request's
 * contents once the model has read them. Returns the contents of each request as sent, as
 * changed, and as kept by the model after the last turn.
 */
async function turns(
  make: (answer: (request: LlmRequest) => LlmResponse) => ScriptedModel | KeepingModel,
  change?: (request: LlmRequest) => void,
) {
  const sent: string[] = [];
  const changed: string[] = [];
  const model = make((request) => {
    sent.push(shown(request.contents));
    const answered = request.contents.at(-1)?.parts.some((part) => part.functionResponse);
    change?.(request);
    changed.push(shown(request.contents));
    return answered ? textResponse('It is 5.') : functionCallResponse(['add', { a: 2, b: 3 }]);
  });
  const tool = new FunctionTool({
    name: 'add',
    description: 'Adds two numbers',
    execute: ({ a, b }: { a: number; b: number }) => ({ sum: a + b }),
  });
  const runner = new InMemoryRunner({
    agent: new LlmAgent({ name: 'calc', model, tools: [tool] }),
  });
  const { id } = await runner.sessionService.createSession({
    appName: runner.appName,
    userId: 'u',
  });
  for (let turn = 0; turn < 3; turn++) {
    const newMessage = userMessage(`Turn ${turn}: what is 2 + 3?`);
    await collect(runner.runAsync({ userId: 'u', sessionId: id, newMessage }));
  }
  const kept = model.requests.map((request) => shown(request.contents));
  return { sent, changed, kept };
}

describe.each(models)('the contents of a request, given to $name', ({ make }) => {
  it.each(changes)(
    'a model that changes them ($name) changes neither the next request nor a kept one',
    async ({ change }) => {
      const untouched = await turns(make);
      const touched = await turns(make, change);
      expect(untouched.sent).toHaveLength(6);
      // The next requests are built as if nothing had happened…
      expect(touched.sent).toEqual(untouched.sent);
      // …and every kept request shows what its own model left in it, whatever came after.
      expect(touched.kept).toEqual(touched.changed);
    },
  );

  it('stay, in a kept request, exactly what they were sent with after later turns', async () => {
    const { sent, kept } = await turns(make);
    expect(new Set(sent).size).toBe(6);
    expect(kept).toEqual(sent);
  });
});

describe('contents lent to a model', () => {
  const [a, b, c, d] = ['a', 'b', 'c', 'd'].map(text) as [Content, Content, Content, Content];
  /** The cache's list, grown after the first two were lent. */
  const lent = () => {
    const shared = [a, b];
    const view = lendContents(shared, 2);
    shared.push(c);
    return { shared, view };
  };

  /** Every way of reading or changing an array, done to a view and to an array of its own. */
  const uses: [string, (contents: Content[]) => unknown][] = [
    ['length', (x) => x.length],
    ['index', (x) => [x[0], x[1], x[2], x[-1]]],
    ['at', (x) => [x.at(-1), x.at(2)]],
    ['in', (x) => [0 in x, 1 in x, 2 in x, 'length' in x]],
    ['for…of', (x) => [...x]],
    ['keys and entries', (x) => [Object.keys(x), Object.entries(x), [...x.entries()]]],
    [
      'map, filter, slice, concat',
      (x) => [x.map((y) => y), x.filter(Boolean), x.slice(1), x.concat([d])],
    ],
    ['indexOf, includes, findLast', (x) => [x.indexOf(b), x.includes(c), x.findLast(() => true)]],
    ['JSON', (x) => JSON.stringify(x)],
    ['Array.isArray', (x) => Array.isArray(x)],
    ['console.log', (x) => inspect(x)],
    ['structure', (x) => [Object.getPrototypeOf(x) === Array.prototype, x.constructor === Array]],
    ['push', (x) => [x.push(d), [...x]]],
    ['pop and shift', (x) => [x.pop(), x.shift(), [...x]]],
    ['splice', (x) => [x.splice(0, 1, d, d), [...x]]],
    ['sort and reverse', (x) => [x.reverse(), x.sort(() => 0)].map((y) => [...y])],
    ['length = 0', (x) => ((x.length = 0), [...x])],
    ['length = 4', (x) => ((x.length = 4), [x.length, 3 in x])],
    ['assign', (x) => ((x[0] = d), (x[3] = d), [...x])],
    ['delete', (x) => [delete x[0], 0 in x, x.length]],
    ['freeze', (x) => [Object.isFrozen(Object.freeze(x)), Reflect.set(x, 0, d), [...x]]],
    ['changed, then read', (x) => (x.push(d), [x.length, inspect(x), JSON.stringify(x)])],
  ];

  it.each(uses)('act as an array of their own: %s', (_, use) => {
    const { shared, view } = lent();
    expect(use(view)).toEqual(use([a, b]));
    // The list they were lent from never changes.
    expect(shared).toEqual([a, b, c]);
    expect(shared[0]).toBe(a);
  });

  it('show the list as it was when lent, however it grows', () => {
    const { shared, view } = lent();
    shared.push(d);
    expect(view).toEqual([a, b]);
    expect(view).toHaveLength(2);
  });
});
