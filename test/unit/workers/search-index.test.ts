// The search index in parts (workers/search/search-index.ts) against MiniSearch in one piece:
// the same sessions found, in the same order, with the same scores; a search loads only the
// parts its words are in; a part saved, then behind its docs, catches up when loaded; a part
// missing or damaged builds every part again. Its source is the search store over
// fake-indexeddb (src/store/search-store.ts), as the room (search.ts) gives it.

import 'fake-indexeddb/auto';
import MiniSearch from 'minisearch';
import { describe, expect, it } from 'vitest';
import {
  IndexedDbSearchStore,
  revOf,
  type SearchDocInput,
} from '../../../src/store/search-store.ts';
import {
  BUCKETS,
  SessionIndex,
  bucketOf,
  type IndexSource,
} from '../../../workers/search/search-index.ts';
import { freshDbName } from '../../support/helpers.ts';

const WORDS =
  'apple apricot banana blueberry cherry date elderberry fig grape guava kiwi lemon lime mango melon nectarine olive orange papaya peach pear plum quince raspberry strawberry tangerine'.split(
    ' ',
  );

function doc(i: number, text: string, title = `Session ${i}`): SearchDocInput {
  const lastUpdateTime = 1_000 + i;
  return {
    sessionId: `s-${i}`,
    title,
    seq: 2,
    lastUpdateTime,
    rev: revOf(lastUpdateTime, 2, title + text),
    turns: [{ invocationId: 'e-1', active: true, time: lastUpdateTime, text }],
    state: [['topic', WORDS[i % WORDS.length]!]],
    artifacts: [`${WORDS[(i * 7) % WORDS.length]}-notes.md`],
  };
}

/** Forty sessions, each a dozen fruit words (some sessions share many). */
const DOCS = Array.from({ length: 40 }, (_, i) =>
  doc(i, Array.from({ length: 12 }, (_, j) => WORDS[(i * 5 + j * j) % WORDS.length]).join(' ')),
);

async function storeWith(docs: readonly SearchDocInput[]) {
  const store = new IndexedDbSearchStore('app', 'user', { dbName: freshDbName() });
  await store.write(docs.map((d) => ({ doc: d, turns: d.turns, replace: true })));
  const source: IndexSource = {
    snapshot: (bucket) => store.snapshot(bucket, BUCKETS),
    docs: (ids) => store.docs(ids),
    allDocs: () => store.allDocs(),
  };
  const open = async () => SessionIndex.open((await store.revs()).revs, source);
  return { store, source, open };
}

/** MiniSearch in one piece, as the parts are configured (a session's fields as text). */
function wholeIndex(docs: readonly SearchDocInput[]) {
  const index = new MiniSearch({
    fields: ['title', 'text', 'state', 'artifacts'],
    searchOptions: {
      combineWith: 'AND',
      prefix: (term: string) => term.length >= 3,
      boost: { title: 3, artifacts: 2 },
    },
  });
  index.addAll(
    docs.map((d) => ({
      id: d.sessionId,
      title: d.title,
      text: d.turns.map((turn) => turn.text).join('\n'),
      state: d.state.map(([key, value]) => `${key} ${value}`).join('\n'),
      artifacts: d.artifacts.join('\n'),
    })),
  );
  return index;
}

function byScore<T extends { score: number }>(found: T[], id: (item: T) => string): T[] {
  return [...found].sort((a, b) => b.score - a.score || id(a).localeCompare(id(b)));
}

const QUERIES = ['apple', 'ba', 'cher mango', 'pea', 'plum lemon kiwi', 'notes', 'session 3', 'zz'];

describe('the search index in parts', () => {
  it('finds what MiniSearch in one piece finds, in the same order, with the same scores', async () => {
    const { open } = await storeWith(DOCS);
    const parts = await open();
    const whole = wholeIndex(DOCS);
    for (const query of QUERIES) {
      const words = parts.words(query);
      // Sessions of equal score come in the order they were indexed: each in the order of ids.
      const mine = byScore(await parts.search(words, 50), (m) => m.sessionId);
      const theirs = byScore(whole.search(words.join(' ')), (r) => String(r.id));
      expect(
        mine.map((m) => m.sessionId),
        query,
      ).toEqual(theirs.map((r) => r.id));
      mine.forEach((match, i) => {
        expect(match.score, `${query} ${match.sessionId}`).toBeCloseTo(theirs[i]!.score, 6);
        expect([...match.terms].sort()).toEqual([...theirs[i]!.terms].sort());
      });
    }
    expect(QUERIES.some((query) => new Set(parts.words(query).map(bucketOf)).size > 1)).toBe(true);
  });

  it('loads only the parts its words are in, once saved', async () => {
    const { store, open } = await storeWith(DOCS);
    const first = await open();
    await first.search(['apple'], 10); // nothing saved yet: every part is built
    expect(first.loaded).toBe(BUCKETS);
    const parts = first.changedParts();
    expect(parts).toHaveLength(BUCKETS);
    await store.saveSnapshots(parts, BUCKETS);
    first.saved(parts);
    expect(first.changedParts()).toEqual([]);

    const next = await open();
    expect(next.loaded).toBe(0);
    const words = next.words('cherry plum');
    expect((await next.search(words, 10)).length).toBeGreaterThan(0);
    expect(next.loaded).toBe(new Set(words.map(bucketOf)).size);
    expect(next.dirty).toBe(false);
  });

  it('catches a saved part up with the docs changed and removed since', async () => {
    const { store, open } = await storeWith(DOCS);
    const first = await open();
    await first.search(['apple'], 10);
    await store.saveSnapshots(first.changedParts(), BUCKETS);

    const changed = doc(1, 'a zeppelin over the apple orchard');
    await store.write([{ doc: changed, turns: changed.turns, replace: true }], ['s-0']);
    const next = await open();
    const found = await next.search(['zeppelin'], 10);
    expect(found.map((m) => m.sessionId)).toEqual(['s-1']);
    const apples = (await next.search(['apple'], 50)).map((m) => m.sessionId);
    expect(apples).toContain('s-1');
    expect(apples).not.toContain('s-0');
    expect(next.dirty).toBe(true); // caught up: saved again after a quiet
  });

  it('builds every part again when one is missing or damaged, or of another split', async () => {
    const { store, source, open } = await storeWith(DOCS);
    const first = await open();
    await first.search(['apple'], 10);
    const saved = first.changedParts();
    const bucket = bucketOf('apple');
    const damaged = saved.map((part) =>
      part.bucket === bucket ? { ...part, index: '{"broken' } : part,
    );
    await store.saveSnapshots(damaged, BUCKETS);
    const next = await open();
    expect((await next.search(['apple'], 50)).length).toBeGreaterThan(0);
    expect(next.loaded).toBe(BUCKETS);

    // Saved with another number of parts: read as missing.
    await store.saveSnapshots(saved, BUCKETS + 1);
    expect(await source.snapshot(bucket)).toBeUndefined();
    expect(await store.snapshot(bucket, BUCKETS + 1)).toBeDefined();
  });

  it('puts a word and every word it begins in one part', () => {
    for (const word of WORDS)
      for (let end = 3; end <= word.length; end++)
        expect(bucketOf(word.slice(0, end))).toBe(bucketOf(word));
    const used = new Set(WORDS.map(bucketOf));
    expect(used.size).toBeGreaterThan(8);
    for (const bucket of used) expect(bucket).toBeLessThan(BUCKETS);
  });
});
