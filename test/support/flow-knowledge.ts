// Knowledge for flow tests: a FlowKnowledge over bases held in memory, each a list of documents
// cut into one chunk per paragraph, found by the words they share with the query (the app's own
// search is src/knowledge's; what a flow does with the hits is what these tests pin). A base that
// is not there (deleted) is refused as the app refuses it.

import type { FlowKnowledge } from '../../src/index.ts';
import type { KnowledgeChunk, KnowledgeHit } from '../../src/knowledge/types.ts';

export interface MemoryBase {
  /** Document name → its text (paragraphs are its chunks). */
  [document: string]: string;
}

export function memoryKnowledge(bases: Record<string, MemoryBase>): FlowKnowledge & {
  searches: { baseIds: readonly string[]; query: string; limit: number }[];
} {
  const searches: { baseIds: readonly string[]; query: string; limit: number }[] = [];
  const chunks = new Map<string, { chunk: KnowledgeChunk; document: string }[]>();
  for (const [baseId, documents] of Object.entries(bases)) {
    const made: { chunk: KnowledgeChunk; document: string }[] = [];
    for (const [document, text] of Object.entries(documents)) {
      let start = 0;
      text.split('\n\n').forEach((paragraph, seq) => {
        const documentId = `${baseId}-${document}`;
        made.push({
          document,
          chunk: {
            id: `${documentId}:${seq}`,
            baseId,
            documentId,
            seq,
            text: paragraph,
            start,
            end: start + paragraph.length,
          },
        });
        start += paragraph.length + 2;
      });
    }
    chunks.set(baseId, made);
  }
  return {
    searches,
    async search(baseIds, query, { limit }) {
      searches.push({ baseIds, query, limit });
      const words = new Set(query.toLowerCase().match(/\w+/g) ?? []);
      const hits: KnowledgeHit[] = [];
      for (const baseId of baseIds) {
        const base = chunks.get(baseId);
        if (!base) throw new Error(`There is no knowledge base ${baseId}: it was deleted`);
        for (const { chunk, document } of base) {
          const score = (chunk.text.toLowerCase().match(/\w+/g) ?? []).filter((w) =>
            words.has(w),
          ).length;
          if (score > 0) hits.push({ chunk, document, score });
        }
      }
      return hits.sort((a, b) => b.score - a.score).slice(0, limit);
    },
  };
}
