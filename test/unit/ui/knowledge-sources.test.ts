// The sources under an answer: what any knowledge tool (whatever its name) gave in the answer's
// turn, under the turn's last agent message, numbered as the tool numbered them, each once, and
// nothing of a response that only looks like sources. The sources are made by the knowledge
// tool's own `sourceOf`, so the chat reads what the tool really writes.

import { describe, expect, it } from 'vitest';
import { createEventActions, type Event } from '../../../src/index.ts';
import { placeOf, type KnowledgeHit } from '../../../src/knowledge/types.ts';
import { sourceOf } from '../../../src/tools/knowledge-tool.ts';
import { chatItems } from '../../../src/ui/chat/chat-model.ts';
import { answerSources, sourceLabel, sourcesOf } from '../../../src/ui/knowledge/answer-sources.ts';

let ids = 0;
function event(init: Partial<Event> & Pick<Event, 'invocationId' | 'author'>): Event {
  return { id: `e${++ids}`, timestamp: ids, actions: createEventActions(), ...init };
}

function hit(seq: number, document = 'Handbook.pdf', page?: number): KnowledgeHit {
  return {
    document,
    score: 1,
    chunk: {
      id: `doc-${document}:${seq}`,
      baseId: 'kb1',
      documentId: `doc-${document}`,
      seq,
      text: `Passage ${seq} of ${document}`,
      start: seq * 100,
      end: seq * 100 + 50,
      ...(page !== undefined ? { page } : {}),
    },
  };
}

/** A turn: the user asks, the agent calls `tool` (each response given), then answers. */
function turn(invocationId: string, responses: { name: string; response: unknown }[]): Event[] {
  return [
    event({
      invocationId,
      author: 'user',
      content: { role: 'user', parts: [{ text: 'What does the handbook say?' }] },
    }),
    ...responses.flatMap(({ name, response }, i) => [
      event({
        invocationId,
        author: 'helper',
        content: {
          role: 'model',
          parts: [{ functionCall: { id: `${invocationId}-c${i}`, name, args: { query: 'q' } } }],
        },
      }),
      event({
        invocationId,
        author: 'helper',
        content: {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: `${invocationId}-c${i}`,
                name,
                response: response as Record<string, unknown>,
              },
            },
          ],
        },
      }),
    ]),
    event({
      invocationId,
      author: 'helper',
      content: { role: 'model', parts: [{ text: 'It says so [1].' }] },
    }),
  ];
}

const answersOf = (events: Event[]) => answerSources(events, chatItems(events));

describe('sources under an answer', () => {
  it('lists what a knowledge tool gave under the turn’s answer, numbered as given', () => {
    const events = turn('i1', [
      {
        name: 'search_knowledge',
        response: {
          sources: [sourceOf(hit(2, 'Handbook.pdf', 3), 1), sourceOf(hit(0, 'FAQ.md'), 2)],
        },
      },
    ]);
    const answer = chatItems(events).at(-1)!;
    const sources = answersOf(events).get(answer.id)!;
    expect(sources.map(sourceLabel)).toEqual(['[1] Handbook.pdf — page 3', '[2] FAQ.md — part 1']);
    expect(sources[0]!.ref.chunkId).toBe('doc-Handbook.pdf:2');
    expect(sources[0]!.text).toBe('Passage 2 of Handbook.pdf');
  });

  it('reads any tool’s `{ sources }` (a Flowise retriever’s own name), several calls in order, each number once', () => {
    const events = turn('i1', [
      { name: 'search_apple', response: { sources: [sourceOf(hit(1), 2), sourceOf(hit(0), 1)] } },
      // A second search: a passage found again keeps its number; a new one takes the next.
      {
        name: 'search_knowledge',
        response: { sources: [sourceOf(hit(0), 1), sourceOf(hit(5), 3)] },
      },
    ]);
    const [sources] = [...answersOf(events).values()];
    expect(sources!.map((source) => [source.source, source.ref.chunkId])).toEqual([
      [1, 'doc-Handbook.pdf:0'],
      [2, 'doc-Handbook.pdf:1'],
      [3, 'doc-Handbook.pdf:5'],
    ]);
  });

  it('keeps each turn’s sources under its own answer', () => {
    const events = [
      ...turn('i1', [{ name: 'search_knowledge', response: { sources: [sourceOf(hit(0), 1)] } }]),
      ...turn('i2', [{ name: 'search_knowledge', response: { sources: [sourceOf(hit(7), 1)] } }]),
      ...turn('i3', []),
    ];
    const items = chatItems(events).filter((item) => item.kind === 'message' && !item.fromUser);
    const answers = answersOf(events);
    expect(items.map((item) => answers.get(item.id)?.map((s) => s.ref.chunkId))).toEqual([
      ['doc-Handbook.pdf:0'],
      ['doc-Handbook.pdf:7'],
      undefined,
    ]);
  });

  it('shows nothing of responses that are not sources, or only look like them', () => {
    const whole = sourceOf(hit(0), 1);
    const { place: _place, ...noPlace } = whole;
    const events = turn('i1', [
      { name: 'get_weather', response: { result: 'sunny' } },
      { name: 'search_knowledge', response: { error: 'search_knowledge needs a query' } },
      { name: 'odd', response: { sources: 'not a list' } },
      {
        name: 'odd',
        response: {
          sources: [
            noPlace,
            { ...whole, source: 0 },
            { ...whole, source: 1.5 },
            { ...whole, ref: null },
            null,
            'x',
          ],
        },
      },
    ]);
    expect(answersOf(events).size).toBe(0);
    expect(sourcesOf({ sources: [whole, noPlace] })).toEqual([whole]);
    expect(sourcesOf(null)).toEqual([]);
  });

  it('leaves out what an agent called as a tool found (its own answer cites it)', () => {
    const events = turn('i1', []);
    const inner = turn('i1', [
      { name: 'search_knowledge', response: { sources: [sourceOf(hit(0), 1)] } },
    ]).map((e) => ({ ...e, branch: 'helper.researcher#c1' }));
    expect(answersOf([...events.slice(0, 1), ...inner, ...events.slice(1)]).size).toBe(0);
  });

  it('names a place as the knowledge types do', () => {
    expect(placeOf({ seq: 3, heading: 'Setup › Install' })).toBe('Setup › Install');
    expect(sourceLabel(sourceOf(hit(3, 'Guide.md'), 4))).toBe('[4] Guide.md — part 4');
  });
});
