// How knowledge-store.ts packs a document's chunks, and its vectors by one embedder, into one
// record each (database.ts: KnowledgeChunksRecord, KnowledgeVectorsRecord); it unpacks chunks
// itself (a chunk's id is the knowledge room's to make). What must stay true: unpacking gives
// back what was packed, field for field (a chunk's absent heading or page stays absent), and each
// vector read is a copy of its own.

import type { KnowledgeChunk, KnowledgeDocument } from '../knowledge/types.ts';
import type {
  KnowledgeChunksRecord,
  KnowledgeVectorKey,
  KnowledgeVectorsRecord,
} from './database.ts';

// A new field of TextChunk needs a column in KnowledgeChunksRecord: this fails to compile until
// it has one.
type Packed =
  'id' | 'baseId' | 'documentId' | 'seq' | 'text' | 'start' | 'end' | 'heading' | 'page';
const everyFieldPacked: Exclude<keyof KnowledgeChunk, Packed> extends never ? true : never = true;
void everyFieldPacked;

export function packChunks(
  document: KnowledgeDocument,
  chunks: KnowledgeChunk[],
): KnowledgeChunksRecord {
  const record: KnowledgeChunksRecord = {
    baseId: document.baseId,
    documentId: document.id,
    texts: chunks.map((chunk) => chunk.text),
    starts: Float64Array.from(chunks, (chunk) => chunk.start),
    ends: Float64Array.from(chunks, (chunk) => chunk.end),
  };
  if (chunks.some((chunk) => chunk.heading !== undefined))
    record.headings = chunks.map((chunk) => chunk.heading);
  if (chunks.some((chunk) => chunk.page !== undefined))
    record.pages = chunks.map((chunk) => chunk.page);
  return record;
}

export const vectorsKey = (record: KnowledgeVectorsRecord): KnowledgeVectorKey => [
  record.baseId,
  record.key,
  record.documentId,
  record.seqs,
];

/** A document's vectors by seq (ascending), one after another in one record. */
export function packVectors(
  baseId: string,
  key: string,
  documentId: string,
  bySeq: Map<number, Float32Array>,
): KnowledgeVectorsRecord {
  const seqs = [...bySeq.keys()].sort((a, b) => a - b);
  const dimension = bySeq.get(seqs[0]!)!.length;
  const vectors = new Float32Array(seqs.length * dimension);
  seqs.forEach((seq, i) => vectors.set(bySeq.get(seq)!, i * dimension));
  return { baseId, key, documentId, seqs: runsOf(seqs), dimension, vectors };
}

/** A record's vectors by seq, each a copy of its own (not a view of the record's buffer). */
export function unpackVectors(record: KnowledgeVectorsRecord): [number, Float32Array][] {
  const { dimension, vectors } = record;
  return seqsOf(record.seqs).map((seq, i) => [
    seq,
    vectors.slice(i * dimension, (i + 1) * dimension),
  ]);
}

/** Seqs, ascending, as runs: [0, 1, 2, 5] is "0-2,5". */
function runsOf(seqs: number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < seqs.length;) {
    let j = i;
    while (j + 1 < seqs.length && seqs[j + 1] === seqs[j]! + 1) j++;
    runs.push(j === i ? `${seqs[i]}` : `${seqs[i]}-${seqs[j]}`);
    i = j + 1;
  }
  return runs.join(',');
}

/** The seqs that runs (runsOf) name, ascending. */
export function seqsOf(runs: string): number[] {
  return runs.split(',').flatMap((run) => {
    const [from, to = from] = run.split('-').map(Number);
    return Array.from({ length: to! - from! + 1 }, (_, i) => from! + i);
  });
}
