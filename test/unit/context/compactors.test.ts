// Each of ADK 2.0's context compactors on Trellis, by its rules: when it compacts, what it
// covers and keeps, the event it writes, and what the model is sent after it. (Side by side
// with @google/adk 2.0: test/unit/agents/compaction-parity.test.ts.)

import { describe, expect, it } from 'vitest';
import {
  AgentControlledContextCompactor,
  ConsolidateContextTool,
  InvalidRequestError,
  ScriptedModel,
  TokenBasedContextCompactor,
  TruncatingContextCompactor,
  estimateContextTokens,
  functionCallResponse,
  isCompactionEvent,
  textResponse,
  type Event,
} from '../../../src/index.ts';
import {
  compactingAgent,
  countingSummarizer,
  lines,
  weatherTool,
} from '../../support/compaction.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { inMemoryKind } from '../../support/service-kinds.ts';

async function chat(agent: ReturnType<typeof compactingAgent>, messages: readonly string[]) {
  const session = await openRunnerSession(inMemoryKind.open(), agent);
  for (const text of messages) await session.run(text);
  const { events } = await session.read();
  return { events, compactions: events.filter(isCompactionEvent) };
}

const requestsOf = (agent: ReturnType<typeof compactingAgent>) =>
  (agent.model as ScriptedModel).requests.map((request) => lines(request.contents));

describe('TokenBasedContextCompactor', () => {
  it('compacts nothing while the context is under its threshold', async () => {
    const { summarizer, model } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 10_000, eventRetentionSize: 1, summarizer }),
    ]);
    const { events, compactions } = await chat(agent, ['one', 'two', 'three']);
    expect(compactions).toEqual([]);
    expect(model.requests).toEqual([]);
    expect(requestsOf(agent).at(-1)).toHaveLength(5);
    expect(events).toHaveLength(6);
  });

  it('over it, summarises all but the last events; the model then sees the summary first', async () => {
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer }),
    ]);
    const { events, compactions } = await chat(agent, ['one', 'two', 'three']);
    // Turn 2's request (3 events, ~45 tokens) is under; turn 3's (5 events) is over.
    expect(compactions).toHaveLength(1);
    const [compaction] = compactions;
    const at = events.indexOf(compaction!);
    // Written in turn 3, before its model call: after its message, before its answer.
    expect(events[at - 1]!.content?.parts[0]?.text).toBe('three');
    expect(compaction).toMatchObject({
      author: 'system',
      invocationId: events[at - 1]!.invocationId,
      actions: {
        compaction: {
          startEventId: events[0]!.id,
          endEventId: events[2]!.id,
          startTimestamp: events[0]!.timestamp,
          endTimestamp: events[2]!.timestamp,
          compactedContent: { role: 'model', parts: [{ text: 'summary #1 of 3 events' }] },
        },
      },
    });
    expect(compaction!.content).toBeUndefined();
    // The log keeps every event; the model sees the summary, then the two kept and the answer.
    expect(events).toHaveLength(7);
    expect(requestsOf(agent).at(-1)).toEqual([
      'user: [Previous Context Summary]:\nsummary #1 of 3 events',
      expect.stringMatching(/^model: heard: two/),
      'user: three',
    ]);
  });

  it('keeps a call with its response, even when that keeps more than it was told', async () => {
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 30, eventRetentionSize: 1, summarizer }),
    ]);
    const { events, compactions } = await chat(agent, ['hello', 'weather in Oslo']);
    // The call for the second model call of turn 2: the response alone would be kept, so the
    // call is kept with it.
    const last = compactions.at(-1)!;
    const end = events.findIndex((event) => event.id === last.actions.compaction!.endEventId);
    const kept = events.slice(end + 1).find((event) => !isCompactionEvent(event));
    expect(kept!.content?.parts[0]?.functionCall?.name).toBe('get_weather');
    expect(requestsOf(agent).at(-1)).toEqual([
      expect.stringMatching(/^user: \[Previous Context Summary\]/),
      'model: get_weather({"city":"Oslo"})',
      'user: get_weather → {"city":"Oslo","sky":"sunny"}',
    ]);
  });

  it('a second compaction summarises the first summary and what followed it', async () => {
    const { summarizer, model } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer }),
    ]);
    const { compactions } = await chat(agent, ['one', 'two', 'three', 'four', 'five']);
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    const second = model.requests[1]!.contents[0]!.parts[0]!.text!;
    expect(second).toContain('[Event 1 - Author: system]\nsummary #1 of 3 events');
    // It covers from where the first began.
    expect(compactions[1]!.actions.compaction!.startEventId).toBe(
      compactions[0]!.actions.compaction!.startEventId,
    );
    const last = requestsOf(agent).at(-1)!;
    expect(last[0]).toMatch(/^user: \[Previous Context Summary\]:\nsummary #\d+ of/);
    expect(last.filter((line) => line.includes('[Previous Context Summary]'))).toHaveLength(1);
    expect(last.at(-1)).toBe('user: five');
  });

  it("counts the model's own prompt token count over the estimate", async () => {
    const { summarizer } = countingSummarizer();
    const model = new ScriptedModel(() => ({
      ...textResponse('ok'),
      usageMetadata: { promptTokenCount: 5000 },
    }));
    const agent = compactingAgent(
      [new TokenBasedContextCompactor({ tokenThreshold: 4000, eventRetentionSize: 1, summarizer })],
      model,
    );
    const { compactions } = await chat(agent, ['a', 'b']);
    expect(compactions).toHaveLength(1);
  });

  it.each([
    [{ tokenThreshold: -1, eventRetentionSize: 1 }, /tokenThreshold must be a whole number/],
    [{ tokenThreshold: 100, eventRetentionSize: 1.5 }, /eventRetentionSize must be a whole number/],
    [{ tokenThreshold: Number.NaN, eventRetentionSize: 1 }, /tokenThreshold/],
  ])('refuses options %j', (options, message) => {
    const { summarizer } = countingSummarizer();
    expect(() => new TokenBasedContextCompactor({ ...options, summarizer })).toThrow(message);
    expect(() => new TokenBasedContextCompactor({ ...options, summarizer })).toThrow(
      InvalidRequestError,
    );
  });
});

describe('TruncatingContextCompactor', () => {
  it('drops the oldest events but the leading ones, with no summary', async () => {
    const agent = compactingAgent([
      new TruncatingContextCompactor({ threshold: 2, preserveLeadingEvents: 1 }),
    ]);
    const { events, compactions } = await chat(agent, ['first', 'second', 'third']);
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.at(-1)!.actions.compaction!.compactedContent).toEqual({
      role: 'model',
      parts: [],
    });
    expect(requestsOf(agent).at(-1)).toEqual([
      'user: first',
      expect.stringMatching(/^model: heard: second/),
      'user: third',
    ]);
    expect(events.filter((event) => !isCompactionEvent(event))).toHaveLength(6);
  });

  it('refuses a negative threshold', () => {
    expect(() => new TruncatingContextCompactor({ threshold: -2 })).toThrow(
      /threshold must be a whole number of at least 0, not -2/,
    );
  });
});

describe('AgentControlledContextCompactor', () => {
  /** Calls consolidate_context when told to "wrap up", else echoes. */
  const consolidating = () =>
    new ScriptedModel((request) => {
      const last = request.contents.at(-1)!;
      if (last.parts.some((part) => part.functionResponse)) return 'consolidated';
      const said = last.parts[0]?.text ?? '';
      if (said.startsWith('wrap up'))
        return functionCallResponse(['consolidate_context', { detail: 'the plan' }]);
      return `heard: ${said}`;
    });

  it('compacts only when the model asked with consolidate_context, once', async () => {
    const { summarizer, model } = countingSummarizer();
    const agent = compactingAgent(
      [new AgentControlledContextCompactor({ summarizer })],
      consolidating(),
      [weatherTool, new ConsolidateContextTool()],
    );
    const { events, compactions } = await chat(agent, ['one', 'two', 'wrap up', 'after']);
    expect(compactions).toHaveLength(1);
    // Everything before the call is summarised, with the model's detail as the focus.
    const call = events.findIndex((event) =>
      event.content?.parts.some((part) => part.functionCall?.name === 'consolidate_context'),
    );
    expect(compactions[0]!.actions.compaction!.endEventId).toBe(events[call - 1]!.id);
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]!.contents[0]!.parts[0]!.text).toContain(
      'Focus especially on: the plan',
    );
    expect(requestsOf(agent).at(-1)).toEqual([
      'user: [Previous Context Summary]:\nsummary #1 of 6 events',
      'model: consolidate_context({"detail":"the plan"})',
      'user: consolidate_context → {"status":"success","message":"Context consolidation requested."}',
      'model: consolidated',
      'user: after',
    ]);
    // The request lives in temp: state, which is never stored.
    expect(JSON.stringify(events)).not.toContain('temp:consolidate_context');
  });

  it('compacts nothing without the call', async () => {
    const { summarizer, model } = countingSummarizer();
    const agent = compactingAgent(
      [new AgentControlledContextCompactor({ summarizer })],
      consolidating(),
      [new ConsolidateContextTool()],
    );
    const { compactions } = await chat(agent, ['one', 'two']);
    expect(compactions).toEqual([]);
    expect(model.requests).toEqual([]);
  });
});

describe('estimateContextTokens', () => {
  it("counts ADK's way: about 4 characters a token, from the latest compaction on", async () => {
    const { summarizer } = countingSummarizer();
    const agent = compactingAgent([
      new TokenBasedContextCompactor({ tokenThreshold: 60, eventRetentionSize: 2, summarizer }),
    ]);
    const session = await openRunnerSession(inMemoryKind.open(), agent);
    await session.run('one');
    let { events } = await session.read();
    const full = (events as Event[])
      .map((event) => event.content!.parts[0]!.text!.length)
      .reduce((a, b) => a + b);
    expect(estimateContextTokens(events, 'chatter')).toBe(Math.ceil(full / 4));
    await session.run('two');
    await session.run('three');
    ({ events } = await session.read());
    const request = agent.model instanceof ScriptedModel ? agent.model.requests.at(-1)! : undefined;
    const sent = request!.contents.map((content) => content.parts[0]!.text!.length);
    const answer = events.at(-1)!.content!.parts[0]!.text!.length;
    expect(estimateContextTokens(events, 'chatter')).toBe(
      Math.ceil((sent.reduce((a, b) => a + b) + answer) / 4),
    );
  });

  it('takes the latest prompt token count a model reported', () => {
    const event = (text: string, promptTokenCount?: number): Event => ({
      id: text,
      invocationId: 'i',
      author: text === 'q' ? 'user' : 'chatter',
      timestamp: 1,
      content: { role: text === 'q' ? 'user' : 'model', parts: [{ text }] },
      actions: { stateDelta: {}, artifactDelta: {} },
      ...(promptTokenCount ? { usageMetadata: { promptTokenCount } } : {}),
    });
    expect(estimateContextTokens([event('q'), event('a', 1234), event('q')], 'chatter')).toBe(1234);
    expect(estimateContextTokens([], 'chatter')).toBe(0);
  });
});
