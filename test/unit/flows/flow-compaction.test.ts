// A flow's long chat compacts as an agent's does: its model nodes (agent, llm) run their
// context compactors before their call, the compaction is an event of the flow's session, the
// nodes' next requests start from its summary, and the flow goes on as before.

import { describe, expect, it } from 'vitest';
import {
  LlmSummarizer,
  ScriptedModel,
  TokenBasedContextCompactor,
  compileFlow,
  isCompactionEvent,
  textOf,
  type BaseLlm,
  type Flow,
  type LlmRequest,
} from '../../../src/index.ts';
import { nodeModel, nodeOf, replies, runFlow } from '../../support/flows.ts';

const CHAT: Flow = {
  name: 'chat',
  nodes: [
    { id: 'start', type: 'start', model: 'talker' },
    { id: 'answer', type: 'llm', instruction: 'Answer.' },
    { id: 'polish', type: 'agent', instruction: 'Polish the answer.' },
    { id: 'end', type: 'end' },
  ],
  edges: [
    { from: 'start', to: 'answer' },
    { from: 'answer', to: 'polish' },
    { from: 'polish', to: 'end' },
  ],
};

const LONG = ' and a long tail to fill the window'.repeat(6);
const said = (request: LlmRequest) => request.contents.map((c) => textOf(c)).join(' / ');

function setUp() {
  const seen: { node: string; first: string }[] = [];
  const model = nodeModel({
    answer: (request) => {
      seen.push({ node: 'answer', first: textOf(request.contents[0]) });
      return `answer to ${textOf(request.contents.at(-1))}${LONG}`;
    },
    polish: (request) => {
      seen.push({ node: 'polish', first: textOf(request.contents[0]) });
      return `polished${LONG}`;
    },
  });
  const summaries = new ScriptedModel((_r, index) => `summary ${index + 1}`);
  const compactors = (on: BaseLlm) =>
    on === model
      ? [
          new TokenBasedContextCompactor({
            tokenThreshold: 150,
            eventRetentionSize: 2,
            summarizer: new LlmSummarizer({ llm: summaries }),
          }),
        ]
      : [];
  const agent = compileFlow(CHAT, {
    model: new ScriptedModel(() => 'the default model is not used'),
    models: { talker: model },
    contextCompactors: compactors,
  });
  return { agent, seen, summaries };
}

describe('context compaction in a flow', () => {
  it('compacts before a model node’s call; the next requests start from the summary', async () => {
    const { agent, seen, summaries } = setUp();
    const { events } = await runFlow(agent, 'one', 'two', 'three', 'four');
    const compactions = events.filter(isCompactionEvent);
    expect(compactions.length).toBeGreaterThan(0);
    expect(summaries.requests.length).toBe(compactions.length);
    // The flow answered every turn, through both nodes.
    expect(replies(events).filter((r) => r.startsWith('polish:'))).toHaveLength(4);
    // After the first compaction, each request starts with its summary.
    const firstAt = seen.findIndex((s) => s.first.startsWith('[Previous Context Summary]'));
    expect(firstAt).toBeGreaterThan(0);
    expect(seen.slice(firstAt).every((s) => s.first.startsWith('[Previous Context Summary]'))).toBe(
      true,
    );
  });

  it('a flow without compactors sends the whole conversation', async () => {
    const model = nodeModel({ answer: (r) => `a:${said(r).length}`, polish: () => 'p' });
    const agent = compileFlow(CHAT, { model, models: { talker: model } });
    const { events } = await runFlow(agent, 'one', 'two', 'three');
    expect(events.some(isCompactionEvent)).toBe(false);
    expect(nodeOf(model.requests.at(-1)!)).toBe('polish');
    expect(textOf(model.requests.at(-1)!.contents[0])).toBe('one');
  });
});
