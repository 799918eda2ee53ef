// The KnowledgeStorage contract, on both storages: a document's write and delete are whole
// (vectors of every embedder go with its chunks), vectors are of one length per embedder and only
// of chunks that are there, what is read back is a copy, and bad writes change nothing.

import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../../../src/knowledge/knowledge-base.ts';
import {
  chunkIdOf,
  type KnowledgeStorage,
  type VectorEntry,
} from '../../../src/knowledge/knowledge-storage.ts';
import type { KnowledgeChunk, KnowledgeDocument } from '../../../src/knowledge/types.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { STORAGES, closeStorages } from '../../support/knowledge-fixtures.ts';

afterEach(closeStorages);

const now = Date.UTC(2026, 10, 27);

function documentOf(baseId: string, id: string, texts: string[]) {
  const document: KnowledgeDocument = {
    id,
    baseId,
    name: `${id}.txt`,
    kind: 'text',
    size: 10,
    chars: texts.join('\n\n').length,
    chunkCount: texts.length,
    status: 'indexed',
    addedAt: now,
  };
  let start = 0;
  const chunks: KnowledgeChunk[] = texts.map((text, seq) => {
    const chunk = {
      id: chunkIdOf(id, seq),
      baseId,
      documentId: id,
      seq,
      text,
      start,
      end: start + text.length,
    };
    start = chunk.end + 2;
    return chunk;
  });
  return { document, chunks, text: { text: texts.join('\n\n') } };
}

describe.each(STORAGES)('KnowledgeStorage ($name)', (kind) => {
  async function withBase(storage: KnowledgeStorage = kind.fresh(), ids = ['a', 'b']) {
    const base = await KnowledgeBase.create(storage, { name: 'B' });
    const a = documentOf(base.id, ids[0]!, ['alpha one', 'alpha two']);
    const b = documentOf(base.id, ids[1]!, ['beta one']);
    await storage.putDocument(a.document, { text: a.text, chunks: a.chunks });
    await storage.putDocument(b.document, { text: b.text, chunks: b.chunks });
    return { storage, baseId: base.id, a, b };
  }

  it('deletes a document with its text, file, chunks and the vectors of every embedder', async () => {
    const { storage, baseId, a, b } = await withBase();
    for (const key of ['p/one', 'p/two'])
      await storage.putVectors(baseId, key, [
        [chunkIdOf('a', 0), [1, 0]],
        [chunkIdOf('a', 1), [0, 1]],
        [chunkIdOf('b', 0), [1, 1]],
      ]);
    const revision = await storage.deleteDocument(baseId, 'a');
    expect(revision.before).not.toBe(revision.after);
    expect(await storage.revision(baseId)).toBe(revision.after);
    expect(await storage.documents(baseId)).toEqual([b.document]);
    expect(await storage.chunks(baseId)).toEqual(b.chunks);
    expect(await storage.text(baseId, 'a')).toBeUndefined();
    expect(await storage.chunk(chunkIdOf('a', 0))).toBeUndefined();
    for (const key of ['p/one', 'p/two'])
      expect([...(await storage.vectorIds(baseId, key))]).toEqual([chunkIdOf('b', 0)]);
    expect(a.chunks).toHaveLength(2);
  });

  it('drops a document’s vectors when its chunks are replaced', async () => {
    const { storage, baseId, a } = await withBase();
    await storage.putVectors(baseId, 'k', [[chunkIdOf('a', 0), [1, 2, 3]]]);
    const again = documentOf(baseId, 'a', ['alpha, cut otherwise']);
    await storage.putDocument(again.document, { chunks: again.chunks });
    expect(await storage.chunks(baseId, 'a')).toEqual(again.chunks);
    expect((await storage.vectorIds(baseId, 'k')).size).toBe(0);
    // The text was not part of the write: it stays.
    expect(await storage.text(baseId, 'a')).toEqual(a.text);
  });

  it('keeps vectors only of chunks that are there, all of one length per embedder', async () => {
    const { storage, baseId } = await withBase();
    const { written } = await storage.putVectors(baseId, 'k', [
      [chunkIdOf('a', 0), [1, 2]],
      [chunkIdOf('a', 7), [1, 2]],
      [chunkIdOf('gone', 0), [1, 2]],
    ]);
    expect(written).toEqual([chunkIdOf('a', 0)]);
    const revision = await storage.revision(baseId);
    const failures: [VectorEntry[], RegExp][] = [
      [[[chunkIdOf('a', 1), [1, 2, 3]]], /has 3 numbers; this embedder's have 2/],
      [[[chunkIdOf('a', 1), [1, Number.NaN]]], /no number/],
      [[['not a chunk', [1, 2]]], /not a chunk id/],
    ];
    for (const [entries, message] of failures) {
      const error = await rejectionOf(storage.putVectors(baseId, 'k', entries));
      expect(error).toMatchObject({
        name: 'InvalidRequestError',
        message: expect.stringMatching(message),
      });
    }
    expect(await storage.revision(baseId)).toBe(revision);
    expect([...(await storage.vectorIds(baseId, 'k'))]).toEqual([chunkIdOf('a', 0)]);
    // Another embedder's vectors may have another length.
    await storage.putVectors(baseId, 'other', [[chunkIdOf('a', 1), [1, 2, 3]]]);
    expect([...(await storage.vectors(baseId, 'other')).get(chunkIdOf('a', 1))!]).toEqual([
      1, 2, 3,
    ]);
  });

  it('finds documents and chunks by id alone, in whichever base', async () => {
    const { storage, a } = await withBase();
    const other = await withBase(storage, ['c', 'd']);
    expect(await storage.document('a')).toEqual(a.document);
    expect(await storage.document('d')).toEqual(other.b.document);
    expect(await storage.chunk(chunkIdOf('c', 1))).toEqual(other.a.chunks[1]);
    expect(await storage.document('nothing')).toBeUndefined();
    expect(await storage.chunk('nothing')).toBeUndefined();
  });

  it('refuses writes to what is not there, or chunks not the document’s, and changes nothing', async () => {
    const { storage, baseId, a } = await withBase();
    const revision = await storage.revision(baseId);
    const stray = documentOf('no-base', 'c', ['x']);
    const alien = documentOf(baseId, 'c', ['x']);
    const failures = [
      [() => storage.putDocument(stray.document, stray), 'KnowledgeNotFoundError'],
      [() => storage.putDocument({ ...alien.document }), 'KnowledgeNotFoundError'],
      [
        () => storage.putDocument(alien.document, { text: alien.text, chunks: a.chunks }),
        'InvalidRequestError',
      ],
      [() => storage.deleteDocument(baseId, 'c'), 'KnowledgeNotFoundError'],
      [() => storage.deleteDocument('no-base', 'a'), 'KnowledgeNotFoundError'],
      [() => storage.putVectors('no-base', 'k', []), 'KnowledgeNotFoundError'],
      [() => storage.deleteBase('no-base'), 'KnowledgeNotFoundError'],
    ] as const;
    for (const [call, name] of failures) expect(await rejectionOf(call())).toMatchObject({ name });
    expect(await storage.revision(baseId)).toBe(revision);
    expect((await storage.documents(baseId)).map((d) => d.id).sort()).toEqual(['a', 'b']);
    expect(await storage.document('c')).toBeUndefined();
  });

  it('gives copies: changing what was read or written changes nothing stored', async () => {
    const { storage, baseId, a } = await withBase();
    a.chunks[0]!.text = 'changed after the write';
    const [read] = await storage.chunks(baseId, 'a');
    expect(read!.text).toBe('alpha one');
    read!.text = 'changed after the read';
    expect((await storage.chunk(chunkIdOf('a', 0)))!.text).toBe('alpha one');
    const [info] = await storage.bases();
    info!.name = 'changed';
    expect((await storage.base(baseId))!.name).toBe('B');
  });
});
