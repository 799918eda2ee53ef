// KnowledgeIndex (Orama) as built and searched: words every chunk holds weigh less than rare ones,
// whatever the word (the word "constructor" too, which a plain object's prototype answers for), a
// build of thousands of chunks gives the same hits as one made by adding them one document at a
// time, and a removed document's chunks are found no more.

import { describe, expect, it } from 'vitest';
import { KnowledgeIndex } from '../../../src/knowledge/knowledge-index.ts';
import type { KnowledgeChunk } from '../../../src/knowledge/types.ts';

function chunk(documentId: string, seq: number, text: string): KnowledgeChunk {
  return {
    id: `${documentId}:${seq}`,
    baseId: 'b',
    documentId,
    seq,
    text,
    start: 0,
    end: text.length,
  };
}

const names = new Map([
  ['common', 'common.md'],
  ['rare', 'rare.md'],
]);

async function indexOf(chunks: KnowledgeChunk[]) {
  return KnowledgeIndex.build({ chunks, names, revision: 'r1' });
}

describe('KnowledgeIndex', () => {
  it.each(['constructor', 'builder'])(
    'weighs "%s", in every chunk but one, below a word in one chunk only',
    async (common) => {
      const chunks = [
        ...Array.from({ length: 20 }, (_, i) =>
          chunk('common', i, `The ${common} makes part ${i}.`),
        ),
        chunk('rare', 0, 'The widget spins at night.'),
      ];
      const index = await indexOf(chunks);
      const hits = index.search(`${common} widget`, { limit: 3, mode: 'fulltext' });
      expect(hits[0]?.chunk.id).toBe('rare:0');
      expect(hits).toHaveLength(3);
    },
  );

  it('finds the same, scored alike, when built whole or a document at a time', async () => {
    const chunks = Array.from({ length: 3000 }, (_, i) =>
      chunk(i % 2 ? 'common' : 'rare', i, `word${i % 97} word${(i * 7) % 89} topic${i}`),
    );
    const whole = await indexOf(chunks);
    const bit = await indexOf([]);
    for (const documentId of names.keys())
      bit.insert(
        chunks.filter((c) => c.documentId === documentId),
        names,
      );
    // Ties may come in another order (the chunks went in in another order): compared by id. The
    // queries' words start no other word (a word is also found by its start).
    const scores = (found: KnowledgeIndex, query: string) =>
      found
        .search(query, { limit: 100, mode: 'fulltext' })
        .map((hit) => `${hit.chunk.id} ${hit.score.toFixed(9)}`)
        .sort();
    for (const query of ['word96', 'word88 topic2997', 'topic2998'])
      expect(scores(whole, query)).toEqual(scores(bit, query));
    expect(scores(whole, 'word88 topic2997').length).toBeGreaterThan(30);
    expect(scores(whole, 'word88 topic2997').length).toBeLessThan(100);
    bit.removeDocument('common');
    expect(bit.search('topic2999', { limit: 5, mode: 'fulltext' })).toEqual([]);
    expect(bit.size).toBe(1500);
  });
});
