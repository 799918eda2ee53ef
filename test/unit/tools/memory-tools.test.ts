// LOAD_MEMORY and PRELOAD_MEMORY beside @google/adk 2.0's: the same past session in each
// library's InMemoryMemoryService, the same scripted model logic. `load_memory` runs through each
// library's own InMemoryRunner and the sessions they leave are compared; what each tool adds to a
// model request (processLlmRequest) is compared call for call on the same request.

import * as adk from '@google/adk';
import { describe, expect, it } from 'vitest';
import * as trellis from '../../../src/index.ts';
import { collect, userMessage } from '../../support/helpers.ts';

const APP = 'app';
const USER = 'u';

/** A past conversation, the same objects given to both libraries' memory. */
function pastSession(): trellis.SessionToRemember {
  let timestamp = Date.UTC(2026, 0, 15, 10, 30);
  const event = (author: string, text: string) =>
    trellis.createEvent({
      invocationId: 'e-past',
      author,
      timestamp: (timestamp += 60_000),
      content: { role: author === 'user' ? 'user' : 'model', parts: [{ text }] },
    });
  return {
    id: 'past',
    appName: APP,
    userId: USER,
    events: [
      event('user', 'My favourite fruit is the mango.'),
      event('helper', 'Noted: mango.'),
      event('user', 'And I live in Lisbon.'),
    ],
  };
}

interface Part {
  text?: string;
  functionCall?: { name?: string; args?: Record<string, unknown> };
  functionResponse?: { name?: string; response?: Record<string, unknown> };
}
interface Content {
  role?: string;
  parts?: Part[];
}

/**
 * The model of both runs: asked about fruit, it calls `load_memory`; given the memories, it
 * answers with their texts; it says what its system instruction recalled of past conversations.
 */
function answer(contents: readonly Content[], systemInstruction: string): Content {
  const last = contents.at(-1)?.parts?.[0];
  if (last?.functionResponse) {
    const { memories } = last.functionResponse.response as { memories: { content: string }[] };
    return {
      role: 'model',
      parts: [{ text: `You told me: ${memories.map((m) => m.content).join(' / ')}` }],
    };
  }
  const recalled = /<PAST_CONVERSATIONS>\n([\s\S]*)\n<\/PAST_CONVERSATIONS>/.exec(
    systemInstruction,
  );
  if (recalled) return { role: 'model', parts: [{ text: `I recall: ${recalled[1]}` }] };
  return {
    role: 'model',
    parts: [{ functionCall: { name: 'load_memory', args: { query: 'fruit mango' } } }],
  };
}

class AdkScripted extends adk.BaseLlm {
  readonly instructions: string[] = [];
  constructor() {
    super({ model: 'scripted' });
  }
  connect(): never {
    throw new Error('not live');
  }
  async *generateContentAsync(request: adk.LlmRequest) {
    const instruction = String(request.config?.systemInstruction ?? '');
    this.instructions.push(instruction);
    yield { content: answer(request.contents as Content[], instruction) as never };
  }
}

const trellisModel = () =>
  new trellis.ScriptedModel((request) => ({
    content: answer(request.contents, request.systemInstruction ?? '') as trellis.Content,
  }));

/** What a session's events say, without ids and times, which each library makes its own. */
function said(events: readonly { author?: string; content?: Content }[]) {
  return events.map(({ author, content }) => ({
    author,
    parts: (content?.parts ?? []).map(({ text, functionCall, functionResponse }) => ({
      ...(text === undefined ? {} : { text }),
      ...(functionCall ? { call: [functionCall.name, functionCall.args] } : {}),
      ...(functionResponse ? { response: [functionResponse.name, functionResponse.response] } : {}),
    })),
  }));
}

async function runAdk(tool: adk.BaseTool, message: string) {
  const model = new AdkScripted();
  const agent = new adk.LlmAgent({ name: 'helper', model, instruction: 'Help.', tools: [tool] });
  const runner = new adk.InMemoryRunner({ agent, appName: APP });
  await runner.memoryService!.addSessionToMemory(pastSession() as unknown as adk.Session);
  const session = await runner.sessionService.createSession({ appName: APP, userId: USER });
  for await (const _ of runner.runAsync({
    userId: USER,
    sessionId: session.id,
    newMessage: { role: 'user', parts: [{ text: message }] },
  }));
  const stored = await runner.sessionService.getSession({
    appName: APP,
    userId: USER,
    sessionId: session.id,
  });
  return { events: said(stored!.events as never), instructions: model.instructions };
}

async function runTrellis(tool: trellis.BaseTool, message: string) {
  const model = trellisModel();
  const agent = new trellis.LlmAgent({
    name: 'helper',
    model,
    instruction: 'Help.',
    tools: [tool],
  });
  const runner = new trellis.InMemoryRunner({ agent, appName: APP });
  await runner.memoryService!.addSessionToMemory(pastSession());
  const session = await runner.sessionService.createSession({ appName: APP, userId: USER });
  await collect(
    runner.runAsync({ userId: USER, sessionId: session.id, newMessage: userMessage(message) }),
  );
  const stored = await runner.sessionService.getSession({
    appName: APP,
    userId: USER,
    sessionId: session.id,
  });
  return {
    events: said(stored!.events),
    instructions: model.requests.map((request) => request.systemInstruction ?? ''),
  };
}

/** A Trellis invocation of the agent `helper` over a new in-memory session. */
async function invocation(
  memoryService: trellis.BaseMemoryService | undefined,
  userContent: trellis.Content | undefined,
) {
  const sessions = new trellis.InMemorySessionService();
  return trellis.InvocationContext.create({
    invocationId: 'e-1',
    agent: { name: 'helper' },
    session: await sessions.createSession({ appName: APP, userId: USER }),
    sessionService: sessions,
    memoryService,
    userContent,
  });
}

/** What each library's tool adds to a request whose instruction so far is `Help.`. */
async function processed(message: string | undefined, withMemory = true) {
  const userContent = message === undefined ? undefined : userMessage(message);
  const adkMemory = new adk.InMemoryMemoryService();
  const ours = new trellis.InMemoryMemoryService();
  await adkMemory.addSessionToMemory(pastSession() as unknown as adk.Session);
  await ours.addSessionToMemory(pastSession());
  const adkSession = {
    id: 's',
    appName: APP,
    userId: USER,
    state: {},
    events: [],
    lastUpdateTime: 0,
  };
  const adkContext = new adk.Context({
    invocationContext: new adk.InvocationContext({
      invocationId: 'e-1',
      session: adkSession as never,
      ...(withMemory ? { memoryService: adkMemory } : {}),
      ...(userContent ? { userContent: userContent as never } : {}),
      pluginManager: new adk.PluginManager(),
    }),
  });
  const ctx = await invocation(withMemory ? ours : undefined, userContent);
  const results = [];
  for (const [theirs, mine] of [
    [adk.LOAD_MEMORY, trellis.LOAD_MEMORY],
    [adk.PRELOAD_MEMORY, trellis.PRELOAD_MEMORY],
  ] as const) {
    const adkRequest = { contents: [], toolsDict: {}, config: { systemInstruction: 'Help.' } };
    await theirs.processLlmRequest({ toolContext: adkContext, llmRequest: adkRequest as never });
    const request: trellis.LlmRequest = { contents: [], systemInstruction: 'Help.' };
    await trellis.processToolRequests(request, [mine], ctx);
    results.push({
      theirs: {
        systemInstruction: adkRequest.config.systemInstruction,
        tools: (
          adkRequest.config as { tools?: { functionDeclarations: unknown[] }[] }
        ).tools?.[0]?.functionDeclarations.map((d) => (d as { name: string }).name),
      },
      ours: {
        systemInstruction: request.systemInstruction,
        tools: request.tools?.map((d) => d.name),
      },
    });
  }
  return results;
}

describe('the memory tools beside ADK', () => {
  it('load_memory: the model asks, gets the memories, and both sessions end the same', async () => {
    const theirs = await runAdk(adk.LOAD_MEMORY, 'What fruit do I like?');
    const ours = await runTrellis(trellis.LOAD_MEMORY, 'What fruit do I like?');
    expect(ours.events).toEqual(theirs.events);
    expect(ours.events.at(-1)).toEqual({
      author: 'helper',
      parts: [{ text: 'You told me: My favourite fruit is the mango. / Noted: mango.' }],
    });
  });

  it.each([
    ['a message that matches', 'Which fruit was it again?'],
    ['a message that matches nothing', 'Hello there'],
    ['no message', undefined],
  ])('adds to the request what ADK adds, for %s', async (_, message) => {
    for (const { ours, theirs } of await processed(message)) expect(ours).toEqual(theirs);
  });

  it('adds nothing but its declaration without a memory service, as ADK', async () => {
    const [load, preload] = await processed('Which fruit?', false);
    expect(load!.ours).toEqual(load!.theirs);
    expect(load!.ours).toEqual({ systemInstruction: 'Help.', tools: ['load_memory'] });
    expect(preload!.ours).toEqual(preload!.theirs);
    expect(preload!.ours).toEqual({ systemInstruction: 'Help.', tools: undefined });
  });

  it('preload_memory puts the past conversations in the instruction, time and author', async () => {
    const [, preload] = await processed('Which fruit was it again?');
    const times = pastSession().events.map((e) => new Date(e.timestamp).toISOString());
    expect(preload!.ours.systemInstruction).toBe(`Help.

The following content is from your previous conversations with the user.
They may be useful for answering the user's current query.
<PAST_CONVERSATIONS>
Time: ${times[0]}
user: My favourite fruit is the mango.
</PAST_CONVERSATIONS>
`);
  });

  it('searchMemory without a memory service says so', async () => {
    const ctx = await invocation(undefined, undefined);
    const toolContext = new trellis.ToolContext(ctx, 'call-1', trellis.createEventActions());
    expect(() => toolContext.searchMemory('x')).toThrow(/no memory service/);
    await expect(trellis.LOAD_MEMORY.runAsync({ query: 'x' }, toolContext)).rejects.toThrow(
      /memory service/,
    );
  });
});

describe('the memory tools in a run, beside ADK', () => {
  it('preload_memory: the model sees the past conversations, and both sessions end the same', async () => {
    const theirs = await runAdk(adk.PRELOAD_MEMORY, 'Which fruit was it again?');
    const ours = await runTrellis(trellis.PRELOAD_MEMORY, 'Which fruit was it again?');
    expect(ours.events).toEqual(theirs.events);
    expect(ours.instructions.at(-1)).toContain('user: My favourite fruit is the mango.');
    expect(ours.events.at(-1)!.parts[0]!.text).toMatch(/^I recall: Time: /);
  });

  it('load_memory tells the model it has memory, as ADK', async () => {
    const theirs = await runAdk(adk.LOAD_MEMORY, 'What fruit do I like?');
    const ours = await runTrellis(trellis.LOAD_MEMORY, 'What fruit do I like?');
    const memoryNote = (instruction: string) =>
      instruction.slice(instruction.indexOf('You have memory'));
    expect(ours.instructions.map(memoryNote)).toEqual(theirs.instructions.map(memoryNote));
  });
});
