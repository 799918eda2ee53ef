// What the knowledge base tests share: both storages (in memory, and IndexedDB over
// fake-indexeddb, reopened under the same database name), and a deterministic embedder.
//
// The embedder knows a little thesaurus: words of one meaning ("car", "automobile", "vehicle")
// make the same part of the vector, so a paraphrase lands near its original while sharing none
// of its words, as a real embedding model's vectors do. Other words are hashed into the vector.

import 'fake-indexeddb/auto';
import {
  InMemoryKnowledgeStorage,
  type KnowledgeStorage,
} from '../../src/knowledge/knowledge-storage.ts';
import type { Embedder } from '../../src/knowledge/types.ts';
import { IndexedDbKnowledgeStorage } from '../../src/store/knowledge-store.ts';
import { freshDbName } from './helpers.ts';

export interface StorageKind {
  name: string;
  /** A new, empty storage. */
  fresh(): KnowledgeStorage;
  /** The storage `storage` was, as a new tab (or a restarted Node) opens it. */
  reopen(storage: KnowledgeStorage): KnowledgeStorage;
}

const opened: IndexedDbKnowledgeStorage[] = [];
const names = new WeakMap<KnowledgeStorage, string>();

function indexedDb(dbName: string): IndexedDbKnowledgeStorage {
  const storage = new IndexedDbKnowledgeStorage({ dbName });
  names.set(storage, dbName);
  opened.push(storage);
  return storage;
}

export const STORAGES: StorageKind[] = [
  { name: 'in memory', fresh: () => new InMemoryKnowledgeStorage(), reopen: (storage) => storage },
  {
    name: 'IndexedDB',
    fresh: () => indexedDb(freshDbName()),
    reopen: (storage) => indexedDb(names.get(storage)!),
  },
];

/** Closes the IndexedDB storages the tests opened. */
export async function closeStorages(): Promise<void> {
  await Promise.all(opened.splice(0).map((storage) => storage.close()));
}

const THESAURUS: Record<string, string> = {};
for (const group of [
  ['car', 'cars', 'automobile', 'automobiles', 'vehicle', 'vehicles', 'motorcar'],
  ['repair', 'repairs', 'fix', 'fixing', 'mend', 'mending', 'service', 'servicing'],
  ['cat', 'cats', 'kitten', 'kittens', 'feline', 'felines'],
  ['food', 'feed', 'feeding', 'meal', 'meals', 'diet', 'nourishment'],
  ['money', 'cash', 'payment', 'payments', 'pay', 'salary', 'wage', 'wages'],
]) {
  for (const word of group) THESAURUS[word] = group[0]!;
}

export const DIMENSION = 64;

function hash(word: string): number {
  let h = 2166136261;
  for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619);
  return (h >>> 0) % DIMENSION;
}

/** A bag of words (thesaurus meanings, else the words themselves) hashed into a vector. */
export function embedText(text: string): number[] {
  const vector: number[] = Array.from({ length: DIMENSION }, () => 0);
  for (const word of text.toLowerCase().match(/[a-z]+/g) ?? []) {
    const meaning = THESAURUS[word];
    // Words of meaning weigh more than the rest, as a model's attention would have it.
    vector[hash(meaning ?? word)]! += meaning ? 3 : 1;
  }
  if (!vector.some((value) => value !== 0)) vector[0] = 1;
  return vector;
}

export interface TestEmbedder extends Embedder {
  /** Texts embedded, by call. */
  readonly calls: { texts: string[]; purpose: string | undefined }[];
}

/**
 * The thesaurus embedder; `before` runs before each call (to stop, or fail, at a chosen batch).
 */
export function testEmbedder(
  options: { key?: string; batchSize?: number; before?: (call: number) => void } = {},
): TestEmbedder {
  const calls: { texts: string[]; purpose: string | undefined }[] = [];
  return {
    key: options.key ?? 'test/thesaurus',
    batchSize: options.batchSize ?? 8,
    calls,
    async embed(texts, embedOptions) {
      options.before?.(calls.length);
      embedOptions?.signal?.throwIfAborted();
      calls.push({ texts, purpose: embedOptions?.purpose });
      return texts.map(embedText);
    },
  };
}

/** Paragraphs of made-up text, each about `topic`, numbered (so each is a chunk of its own). */
export function paragraphs(topic: string, count: number, words = 60): string {
  return Array.from({ length: count }, (_, i) =>
    Array.from({ length: words }, (_, w) =>
      w === 0 ? `${topic}${i}` : `word${(i * 7 + w) % 97}`,
    ).join(' '),
  ).join('\n\n');
}
