// KnowledgeBase on both storages (in memory; IndexedDB over fake-indexeddb): adding, finding and
// removing documents, a base opened again from storage, Stop half-way, re-indexing after a change
// of chunking, search across bases, hybrid and vector search with a deterministic embedder, an
// embedder that fails, another writer on the same storage, and bad input that changes nothing.

import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../../../src/knowledge/knowledge-base.ts';
import type { KnowledgeStorage } from '../../../src/knowledge/knowledge-storage.ts';
import type { KnowledgeHit, KnowledgeProgress } from '../../../src/knowledge/types.ts';
import { rejectionOf } from '../../support/helpers.ts';
import {
  STORAGES,
  closeStorages,
  paragraphs,
  testEmbedder,
} from '../../support/knowledge-fixtures.ts';

afterEach(closeStorages);

const GUIDE = `# Garden guide

## Roses
Roses want sun for six hours a day and water at their roots, never on their leaves.

## Tomatoes
Tomatoes need stakes, and a feed of potash once the first flowers open.
`;

const CARS = 'How to fix a car: check the battery, then the spark plugs, then the fuel pump.';
const CATS = 'A kitten eats three small meals a day until it is six months old.';

const names = (hits: KnowledgeHit[]) => hits.map((hit) => hit.document);
const bytes = (text: string) => new TextEncoder().encode(text);

/** What the base holds, as its documents and a search would show it. */
async function snapshot(base: KnowledgeBase, query: string) {
  return {
    documents: (await base.documents()).map((d) => [d.name, d.status, d.chunkCount]),
    hits: (await base.search(query, { limit: 20 })).map((hit) => hit.chunk.id),
  };
}

describe.each(STORAGES)('KnowledgeBase ($name)', (kind) => {
  async function newBase(storage: KnowledgeStorage = kind.fresh(), name = 'Notes') {
    return KnowledgeBase.create(storage, { name, description: 'what I keep' });
  }

  it('adds documents and finds the chunk that answers, with where it is', async () => {
    const base = await newBase();
    const progress: KnowledgeProgress[] = [];
    const guide = await base.add(
      { name: 'guide.md', type: 'text/markdown', bytes: bytes(GUIDE) },
      { onProgress: (p) => progress.push(p) },
    );
    await base.add({ name: 'cars.txt', text: CARS });
    expect(guide).toMatchObject({ name: 'guide.md', kind: 'markdown', status: 'indexed' });
    expect(progress.map((p) => p.phase)).toEqual(['reading', 'indexing', 'done']);

    const [hit] = await base.search('when to feed tomatoes');
    expect(hit!.document).toBe('guide.md');
    expect(hit!.chunk.heading).toBe('Garden guide › Tomatoes');
    expect(hit!.chunk.text).toContain('potash');
    const text = await base.storage.text(base.id, guide.id);
    expect(text!.text.slice(hit!.chunk.start, hit!.chunk.end)).toBe(hit!.chunk.text);
    expect(names(await base.search('spark plugs'))).toEqual(['cars.txt']);
    // The document's name is searched too.
    expect(names(await base.search('cars'))[0]).toBe('cars.txt');
  });

  it('finds words in any script, with or without accents, and English words by their stem', async () => {
    const base = await newBase();
    await base.add({ name: 'ru.txt', text: 'Кошка спит на диване весь день.' });
    await base.add({ name: 'zh.txt', text: '猫喜欢在阳光下睡觉。' });
    await base.add({ name: 'fr.txt', text: 'Le café est très apprécié à Montréal.' });
    await base.add({ name: 'en.txt', text: 'The installer was installing packages.' });
    expect(names(await base.search('кошка'))).toEqual(['ru.txt']);
    expect(names(await base.search('阳光'))).toEqual(['zh.txt']);
    expect(names(await base.search('montreal cafe'))).toEqual(['fr.txt']);
    expect(names(await base.search('Montréal'))).toEqual(['fr.txt']);
    expect(names(await base.search('installs'))).toEqual(['en.txt']);
    // Words in every text tell nothing apart: a query of those alone finds nothing.
    expect(await base.search('the was')).toEqual([]);
  });

  it('keeps the original file unless told not to; pasted text keeps none', async () => {
    const base = await newBase();
    const kept = await base.add({ name: 'a.md', type: 'text/markdown', bytes: bytes(GUIDE) });
    const dropped = await base.add(
      { name: 'b.md', type: '', bytes: bytes(GUIDE) },
      { keepFile: false },
    );
    const pasted = await base.add({ name: 'pasted', text: CARS });
    expect(await base.storage.file(base.id, kept.id)).toEqual({
      name: 'a.md',
      type: 'text/markdown',
      bytes: bytes(GUIDE),
    });
    expect(await base.storage.file(base.id, dropped.id)).toBeUndefined();
    expect(await base.storage.file(base.id, pasted.id)).toBeUndefined();
  });

  it('finds the same when opened again from storage', async () => {
    const storage = kind.fresh();
    const base = await newBase(storage);
    await base.add({ name: 'guide.md', text: GUIDE });
    await base.add({ name: 'cars.txt', text: CARS });
    const before = await snapshot(base, 'roses sun battery');

    const again = await KnowledgeBase.open(kind.reopen(storage), base.id);
    expect(again.info()).toEqual(base.info());
    expect(await snapshot(again, 'roses sun battery')).toEqual(before);
  });

  it('never finds a removed document, in this tab or another', async () => {
    const storage = kind.fresh();
    const base = await newBase(storage);
    const guide = await base.add({ name: 'guide.md', text: GUIDE });
    await base.add({ name: 'more.md', text: '## Roses\nRoses again: prune them in March.' });
    expect(names(await base.search('roses', { limit: 10 }))).toContain('guide.md');

    await base.remove(guide.id);
    const hits = await base.search('roses sun water tomatoes', { limit: 10 });
    expect(names(hits)).toEqual(['more.md']);
    const again = await KnowledgeBase.open(kind.reopen(storage), base.id);
    expect(names(await again.search('roses sun water tomatoes', { limit: 10 }))).toEqual([
      'more.md',
    ]);
    expect(await storage.chunks(base.id, guide.id)).toEqual([]);
    expect(await storage.text(base.id, guide.id)).toBeUndefined();
  });

  it('sees what another writer on the same storage added and removed', async () => {
    const storage = kind.fresh();
    const mine = await newBase(storage);
    const theirs = await KnowledgeBase.open(kind.reopen(storage), mine.id);
    await mine.add({ name: 'guide.md', text: GUIDE });
    expect(names(await mine.search('battery'))).toEqual([]);

    const cars = await theirs.add({ name: 'cars.txt', text: CARS });
    expect(names(await mine.search('battery'))).toEqual(['cars.txt']);
    await theirs.remove(cars.id);
    expect(names(await mine.search('battery'))).toEqual([]);
  });

  it('moves its index along with its own writes, never reading the whole base again', async () => {
    const storage = kind.fresh();
    let reads = 0;
    const counted = new Proxy(storage, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (property === 'chunks' && args.length === 1) reads++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const base = await newBase(counted);
    const embedder = testEmbedder();
    await base.add({ name: 'guide.md', text: GUIDE }, { embedder });
    expect(names(await base.search('roses', { embedder }))).toEqual(['guide.md']);
    expect(reads).toBe(1);

    const cars = await base.add({ name: 'cars.txt', text: CARS }, { embedder });
    await base.add({ name: 'cats.txt', text: CATS }, { embedder });
    expect(names(await base.search('automobile repair', { embedder, mode: 'vector' }))[0]).toBe(
      'cars.txt',
    );
    await base.remove(cars.id);
    expect(names(await base.search('battery spark', { embedder }))).not.toContain('cars.txt');
    expect(names(await base.search('kitten', { embedder }))[0]).toBe('cats.txt');
    expect(reads).toBe(1);
  });

  it('on Stop while embedding, removes the document being added and keeps those before', async () => {
    const base = await newBase();
    const controller = new AbortController();
    const embedder = testEmbedder({
      batchSize: 2,
      before: (call) => {
        if (call === 3) controller.abort();
      },
    });
    await base.add({ name: 'first.md', text: GUIDE }, { embedder });
    const error = await rejectionOf(
      base.add(
        { name: 'long.txt', text: paragraphs('zebra', 12) },
        { embedder, signal: controller.signal },
      ),
    );
    expect(error.name).toBe('AbortError');
    expect((await base.documents()).map((d) => d.name)).toEqual(['first.md']);
    expect(await base.search('zebra3 zebra5')).toEqual([]);
    // Nothing of it is left: no chunk, no vector of the batches it had done.
    const [first] = await base.documents();
    const vectors = await base.storage.vectors(base.id, embedder.key);
    expect([...vectors.keys()].every((id) => id.startsWith(`${first!.id}:`))).toBe(true);
    expect(vectors.size).toBe(first!.chunkCount);
    const left = await base.storage.chunks(base.id);
    expect(left.every((chunk) => chunk.documentId === first!.id)).toBe(true);
  });

  it('on Stop before the document is read, adds nothing', async () => {
    const base = await newBase();
    const controller = new AbortController();
    controller.abort();
    const error = await rejectionOf(
      base.add(
        { name: 'guide.md', type: 'text/markdown', bytes: bytes(GUIDE) },
        { signal: controller.signal },
      ),
    );
    expect(error.name).toBe('AbortError');
    expect(await base.documents()).toEqual([]);
  });

  it('cuts documents again after a change of chunking, and finds them as before', async () => {
    const base = await newBase();
    const long = await base.add({ name: 'long.txt', text: paragraphs('zebra', 30, 40) });
    const embedder = testEmbedder();
    await base.embed(embedder);
    const before = long.chunkCount;

    await base.update({ chunking: { size: 300, overlap: 30 } });
    const progress: KnowledgeProgress[] = [];
    await base.reindex({ embedder, onProgress: (p) => progress.push(p) });
    const [after] = await base.documents();
    expect(after!.chunkCount).toBeGreaterThan(before);
    const chunks = await base.storage.chunks(base.id);
    expect(chunks).toHaveLength(after!.chunkCount);
    expect(chunks.every((chunk) => chunk.text.length <= 300)).toBe(true);
    const { text } = (await base.storage.text(base.id, long.id))!;
    expect(chunks.every((chunk) => text.slice(chunk.start, chunk.end) === chunk.text)).toBe(true);
    // The old chunks' vectors went with them; the new ones all have theirs.
    expect((await base.storage.vectorIds(base.id, embedder.key)).size).toBe(after!.chunkCount);
    expect(progress.at(-2)).toMatchObject({ phase: 'embedding', done: after!.chunkCount });
    expect(progress.at(-1)).toMatchObject({ phase: 'done', done: 1, total: 1 });
    const [hit] = await base.search('zebra17');
    expect(hit!.chunk.text).toContain('zebra17');
  });

  it('searches several bases, each base’s best hits first', async () => {
    const storage = kind.fresh();
    const garden = await newBase(storage, 'Garden');
    const garage = await newBase(storage, 'Garage');
    await garden.add({ name: 'guide.md', text: GUIDE });
    await garden.add({ name: 'roses.md', text: 'Roses, roses, roses: the sun and the roses.' });
    await garage.add({ name: 'cars.txt', text: CARS });
    await garage.add({ name: 'sun.txt', text: 'Park in the sun and the battery stays warm.' });

    const hits = await KnowledgeBase.searchMany([garden, garage], 'roses sun battery', {
      limit: 3,
    });
    expect(hits).toHaveLength(3);
    expect(new Set(hits.slice(0, 2).map((hit) => hit.chunk.baseId))).toEqual(
      new Set([garden.id, garage.id]),
    );
    expect(hits[0]!.score).toBe(1);
    expect(await KnowledgeBase.searchMany([], 'roses')).toEqual([]);
  });

  it('searches bases of different embedders, embedding the query once for each', async () => {
    const storage = kind.fresh();
    const one = testEmbedder({ key: 'p/one' });
    const two = testEmbedder({ key: 'p/two' });
    const garage = await newBase(storage, 'Garage');
    const pets = await newBase(storage, 'Pets');
    const more = await newBase(storage, 'More pets');
    await garage.add({ name: 'cars.txt', text: CARS }, { embedder: one });
    await pets.add({ name: 'cats.txt', text: CATS }, { embedder: two });
    await more.add(
      { name: 'kittens.txt', text: 'Kittens sleep most of the day.' },
      { embedder: two },
    );
    const calls = [one.calls.length, two.calls.length];

    const embedders = new Map([
      [garage.id, one],
      [pets.id, two],
      [more.id, two],
    ]);
    const hits = await KnowledgeBase.searchMany([garage, pets, more], 'automobile feline', {
      embedders,
      mode: 'vector',
      limit: 10,
    });
    expect(new Set(names(hits))).toEqual(new Set(['cars.txt', 'cats.txt', 'kittens.txt']));
    expect([one.calls.length - calls[0]!, two.calls.length - calls[1]!]).toEqual([1, 1]);
    expect(await garage.embeddedCount(one.key)).toBe(1);
    expect(await garage.embeddedCount(two.key)).toBe(0);
  });

  it('finds by meaning with vectors: a paraphrase full-text misses, and hybrid by default', async () => {
    const base = await newBase();
    const embedder = testEmbedder();
    await base.add({ name: 'cars.txt', text: CARS }, { embedder });
    await base.add({ name: 'cats.txt', text: CATS }, { embedder });
    await base.add({ name: 'guide.md', text: GUIDE }, { embedder });

    expect(await base.search('automobile mending')).toEqual([]);
    const vector = await base.search('automobile mending', { embedder, mode: 'vector' });
    expect(names(vector)[0]).toBe('cars.txt');
    const hybrid = await base.search('feline nourishment', { embedder });
    expect(names(hybrid)[0]).toBe('cats.txt');
    expect(embedder.calls.at(-1)).toEqual({ texts: ['feline nourishment'], purpose: 'query' });
    // Words still count in hybrid: an exact word ranks its chunk first.
    expect(names(await base.search('potash', { embedder }))[0]).toBe('guide.md');
  });

  it('keeps a document whose vectors fail, found by its words, until embed makes them', async () => {
    const base = await newBase();
    const failing = testEmbedder({
      before: () => {
        throw new Error('The embedding server is down');
      },
    });
    const error = await rejectionOf(
      base.add({ name: 'cars.txt', text: CARS }, { embedder: failing }),
    );
    expect(error.name).toBe('KnowledgeEmbeddingError');
    expect(error.message).toMatch(/cars\.txt.*found by its words.*server is down/);
    const [document] = await base.documents();
    expect(document).toMatchObject({
      status: 'indexed',
      error: expect.stringMatching(/words only/),
    });
    expect(names(await base.search('battery'))).toEqual(['cars.txt']);

    const embedder = testEmbedder();
    await base.embed(embedder);
    expect((await base.documents())[0]!.error).toBeUndefined();
    expect(names(await base.search('automobile repair', { embedder, mode: 'vector' }))).toEqual([
      'cars.txt',
    ]);
    // Nothing is left to embed: a second run asks for nothing.
    const calls = embedder.calls.length;
    await base.embed(embedder);
    expect(embedder.calls.length).toBe(calls);
  });

  it('keeps vectors per embedder: another model’s are never mixed in', async () => {
    const base = await newBase();
    const one = testEmbedder({ key: 'p/one' });
    await base.add({ name: 'cars.txt', text: CARS }, { embedder: one });
    const two = testEmbedder({ key: 'p/two' });
    // No vectors by `two` yet: hybrid is full-text, vector an error that says what to do.
    expect(names(await base.search('battery', { embedder: two }))).toEqual(['cars.txt']);
    const error = await rejectionOf(base.search('car', { embedder: two, mode: 'vector' }));
    expect(error).toMatchObject({ name: 'InvalidRequestError', message: /no vectors by p\/two/ });
    await base.embed(two);
    expect(names(await base.search('automobile', { embedder: two, mode: 'vector' }))).toEqual([
      'cars.txt',
    ]);
    expect((await base.storage.vectorIds(base.id, one.key)).size).toBe(1);
  });

  it('refuses bad ids and bad input with a clear error, and changes nothing', async () => {
    const storage = kind.fresh();
    const base = await newBase(storage);
    await base.add({ name: 'guide.md', text: GUIDE });
    const before = await snapshot(base, 'roses');
    const revision = await storage.revision(base.id);

    const failures = [
      [
        () => KnowledgeBase.open(storage, 'no-such-base'),
        'KnowledgeNotFoundError',
        /no knowledge base/,
      ],
      [() => base.remove('no-such-document'), 'KnowledgeNotFoundError', /no document/],
      [() => KnowledgeBase.create(storage, { name: '  ' }), 'InvalidRequestError', /needs a name/],
      [
        () => KnowledgeBase.create(storage, { name: 'x', chunking: { size: 10, overlap: 0 } }),
        'InvalidRequestError',
        /size/,
      ],
      [
        () => base.update({ chunking: { size: 1000, overlap: 600 } }),
        'InvalidRequestError',
        /overlap/,
      ],
      [() => base.add({ name: '', text: 'x' }), 'InvalidRequestError', /needs a name/],
      [() => base.add({ name: 'empty.txt', text: '   ' }), 'InvalidRequestError', /no text/],
      [
        () => base.add({ name: 'x.exe', type: 'application/x-msdownload', bytes: bytes('MZ') }),
        'InvalidRequestError',
        /not a kind of document/,
      ],
      [() => base.search('  '), 'InvalidRequestError', /query is empty/],
      [() => base.search('roses', { limit: 0 }), 'InvalidRequestError', /1 to 100/],
      [() => base.search('roses', { mode: 'vector' }), 'InvalidRequestError', /needs an embedder/],
    ] as const;
    for (const [call, name, message] of failures) {
      expect(await rejectionOf(call())).toMatchObject({
        name,
        message: expect.stringMatching(message),
      });
    }
    expect(await storage.bases()).toHaveLength(1);
    expect(await storage.revision(base.id)).toBe(revision);
    expect(await snapshot(base, 'roses')).toEqual(before);
  });

  it('deletes a base and all of it', async () => {
    const storage = kind.fresh();
    const base = await newBase(storage);
    const other = await newBase(storage, 'Other');
    const embedder = testEmbedder();
    const guide = await base.add(
      { name: 'guide.md', type: 'text/markdown', bytes: bytes(GUIDE) },
      { embedder },
    );
    await other.add({ name: 'cars.txt', text: CARS }, { embedder });

    await base.delete();
    expect((await storage.bases()).map((info) => info.name)).toEqual(['Other']);
    expect(await storage.documents(base.id)).toEqual([]);
    expect(await storage.chunks(base.id)).toEqual([]);
    expect((await storage.vectors(base.id, embedder.key)).size).toBe(0);
    expect(await storage.file(base.id, guide.id)).toBeUndefined();
    expect(await storage.document(guide.id)).toBeUndefined();
    const error = await rejectionOf(base.search('roses'));
    expect(error.name).toBe('KnowledgeNotFoundError');
    expect(names(await other.search('battery'))).toEqual(['cars.txt']);
    expect(await rejectionOf(base.delete())).toMatchObject({ name: 'KnowledgeNotFoundError' });
  });
});
