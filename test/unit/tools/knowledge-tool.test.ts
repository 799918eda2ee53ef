// The knowledge tool (src/tools/knowledge-tool.ts) in a real run: what the model is told, the
// numbered sources it gets back (numbered on across searches of one turn, afresh the next turn),
// and a search that fails or has no query.

import { describe, expect, it } from 'vitest';
import {
  LlmAgent,
  ScriptedModel,
  functionCallResponse,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import type { KnowledgeHit } from '../../../src/knowledge/types.ts';
import { KnowledgeTool, type KnowledgeSearch } from '../../../src/tools/knowledge-tool.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { openRunnerSession } from '../../support/runner-session.ts';
import { inMemoryKind } from '../../support/service-kinds.ts';

const CHUNKS = [
  { text: 'Zorbia’s capital is Quillon.', page: 3, documentId: 'd1', document: 'atlas.pdf' },
  { text: 'Quillon lies on the river Vey.', page: 4, documentId: 'd1', document: 'atlas.pdf' },
  { text: 'Vey trout are grilled.', heading: 'Food › Fish', documentId: 'd2', document: 'food.md' },
];

/** Every chunk holding a word of the query, in order. */
const search: KnowledgeSearch = async (query, { limit }) => {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  return CHUNKS.map((chunk, seq): KnowledgeHit => {
    const { document, ...rest } = chunk;
    return {
      document,
      score: 1,
      chunk: {
        ...rest,
        id: `${chunk.documentId}:${seq}`,
        baseId: 'b1',
        seq,
        start: seq * 100,
        end: seq * 100 + chunk.text.length,
      },
    };
  })
    .filter((hit) => words.some((word) => hit.chunk.text.toLowerCase().includes(word)))
    .slice(0, limit);
};

function agentWith(tool: KnowledgeTool, queries: string[]) {
  const model = new ScriptedModel((request) => {
    const calls = request.contents.filter((content) =>
      content.parts.some((part) => part.functionCall),
    ).length;
    const turn = request.contents.filter(
      (content) => content.role === 'user' && content.parts.some((p) => p.text),
    ).length;
    const asked = turn === 1 ? queries : queries.slice(0, 1);
    const own = calls - (turn === 1 ? 0 : queries.length);
    return own < asked.length
      ? functionCallResponse([tool.name, { query: asked[own] }])
      : 'Quillon [1].';
  });
  return { model, agent: new LlmAgent({ name: 'reader', model, tools: [tool] }) };
}

const responses = (events: readonly Event[]) =>
  events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse.response] : [],
    ),
  );

describe('KnowledgeTool', () => {
  it('gives numbered sources that name the document and place, numbered on within a turn', async () => {
    const tool = new KnowledgeTool({ search, description: 'An atlas of Zorbia.' });
    const { agent, model } = agentWith(tool, ['capital Zorbia', 'trout', 'Zorbia Vey']);
    const ctx = await openRunnerSession(inMemoryKind.open(), agent);
    const events = await ctx.run('What is the capital of Zorbia?');
    expect(responses(events)).toEqual([
      {
        sources: [
          {
            source: 1,
            document: 'atlas.pdf',
            place: 'page 3',
            text: 'Zorbia’s capital is Quillon.',
            ref: { baseId: 'b1', documentId: 'd1', chunkId: 'd1:0', start: 0, end: 28 },
          },
        ],
      },
      {
        sources: [
          expect.objectContaining({ source: 2, document: 'food.md', place: 'Food › Fish' }),
        ],
      },
      // Found again, a passage keeps its number; a new one takes the next.
      {
        sources: [
          expect.objectContaining({ source: 1, place: 'page 3' }),
          expect.objectContaining({ source: 3, place: 'page 4' }),
          expect.objectContaining({ source: 2, place: 'Food › Fish' }),
        ],
      },
    ]);
    const first: LlmRequest = model.requests[0]!;
    expect(first.tools?.map((t) => t.name)).toEqual(['search_knowledge']);
    expect(first.tools?.[0]?.description).toMatch(/^An atlas of Zorbia\. .*cite .*\[n\]/);
    expect(first.systemInstruction).toMatch(/call search_knowledge first.*cite each source/s);

    // A new turn numbers from 1 again.
    const next = await ctx.run('And its river?');
    expect(responses(next)).toEqual([
      { sources: [expect.objectContaining({ source: 1, document: 'atlas.pdf' })] },
    ]);
  });

  it('returns no sources for a search that finds nothing, and refuses an empty query', async () => {
    const tool = new KnowledgeTool({ name: 'search_atlas', search, limit: 2 });
    const none = await openRunnerSession(inMemoryKind.open(), agentWith(tool, ['xylophone']).agent);
    expect(responses(await none.run('Anything on xylophones?'))).toEqual([{ sources: [] }]);

    const empty = await openRunnerSession(inMemoryKind.open(), agentWith(tool, ['  ']).agent);
    const [response] = responses(await empty.run('?'));
    expect(response).toEqual({ error: expect.stringContaining('search_atlas needs a query') });
    // …an answer the model may mend: the run goes on to its answer.
    expect((await empty.read()).events.at(-1)?.content?.parts[0]?.text).toBe('Quillon [1].');
  });

  it('ends the run with the search’s error when the search fails', async () => {
    const tool = new KnowledgeTool({
      search: async () => {
        throw new Error('The knowledge base “Atlas” was deleted');
      },
    });
    const ctx = await openRunnerSession(inMemoryKind.open(), agentWith(tool, ['capital']).agent);
    const error = await rejectionOf(ctx.run('Capital?'));
    expect(error.message).toContain('“Atlas” was deleted');
    const { events } = await ctx.read();
    expect(responses(events)).toEqual([{ error: expect.stringContaining('“Atlas” was deleted') }]);
    expect(events.at(-1)).toMatchObject({ errorCode: 'TOOL_ERROR' });
  });
});
