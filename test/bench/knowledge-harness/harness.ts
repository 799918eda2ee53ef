// A page with nothing but knowledge bases (src/knowledge) on the browser's own IndexedDB, for
// test/bench/knowledge.bench.ts: a PDF and Markdown of the same text added and timed (against a
// plain put of that text: the baseline of the same run), and searches over a base of 10,000
// chunks, full-text and hybrid (vectors from the test servers' hashed bag of words, made here:
// what is timed is the search, not a provider's round trip).

import { extractDocument } from '../../../src/knowledge/extract.ts';
import { KnowledgeBase } from '../../../src/knowledge/knowledge-base.ts';
import type { Embedder } from '../../../src/knowledge/types.ts';
import { IndexedDbKnowledgeStorage } from '../../../src/store/knowledge-store.ts';
import { EMBEDDING_DIMENSIONS, fakeEmbedding } from '../../support/model-embeddings.ts';

declare global {
  interface Window {
    knowledgeHarness: typeof harness;
  }
}

const DB = 'knowledge-bench';
const storage = new IndexedDbKnowledgeStorage({ dbName: DB });
const embedder: Embedder = {
  key: `bench/hashed-${EMBEDDING_DIMENSIONS}`,
  batchSize: 256,
  embed: async (texts) => texts.map(fakeEmbedding),
};

function fromBase64(data: string): Uint8Array {
  return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
}

/** Puts `text` into a store of its own in one transaction: what storing the text alone costs. */
async function plainPut(text: string): Promise<number> {
  const start = performance.now();
  const db = await new Promise<IDBDatabase>((resolve, reject) => {
    const open = indexedDB.open('knowledge-bench-plain', 1);
    open.onupgradeneeded = () => open.result.createObjectStore('texts');
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
  await new Promise<void>((resolve, reject) => {
    const tx = db.transaction('texts', 'readwrite');
    tx.objectStore('texts').put(text, crypto.randomUUID());
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  return performance.now() - start;
}

const bases = new Map<string, KnowledgeBase>();

/** Ticks a timer until stopped: the longest gap between ticks is the longest the thread was held. */
function ticker() {
  let last = performance.now();
  let longest = 0;
  let timer = setTimeout(function tick() {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
    timer = setTimeout(tick, 0);
  }, 0);
  return {
    stop: () => {
      clearTimeout(timer);
      return Math.max(longest, performance.now() - last);
    },
  };
}

const harness = {
  /** Adds a file to a new base: ms, characters read, chunks, and a plain put of the text. */
  async add(name: string, type: string, base64: string, withVectors: boolean) {
    const bytes = fromBase64(base64);
    const base = await KnowledgeBase.create(storage, { name: `bench ${name}` });
    const start = performance.now();
    const document = await base.add(
      { name, type, bytes },
      withVectors ? { embedder, keepFile: false } : { keepFile: false },
    );
    const ms = performance.now() - start;
    const text = (await storage.text(base.id, document.id))!.text;
    return {
      ms,
      chars: document.chars,
      chunks: document.chunkCount,
      plainMs: await plainPut(text),
    };
  },

  /** Reads a file into text only (what pdf.js costs of an add): ms. */
  async read(name: string, type: string, base64: string) {
    const bytes = fromBase64(base64);
    const start = performance.now();
    await extractDocument({ name, type, bytes });
    return performance.now() - start;
  },

  /** A base of `documents` documents of `perDocument` chunks' worth of words, with vectors. */
  async seed(documents: number, text: string) {
    const base = await KnowledgeBase.create(storage, {
      name: 'bench big',
      chunking: { size: 1000, overlap: 100 },
    });
    for (let i = 0; i < documents; i++)
      await base.add({ name: `doc-${i}.md`, text: text.replaceAll('DOC', `d${i}`) }, { embedder });
    bases.set('big', base);
    const all = await base.documents();
    return { id: base.id, chunks: all.reduce((n, d) => n + d.chunkCount, 0) };
  },

  /**
   * The first search of a base just opened: its index built from storage. Also the longest the
   * thread was held meanwhile (a timer's ticks apart), and how long the bulk reads alone take.
   */
  async firstSearch(id: string, query: string) {
    const readStart = performance.now();
    await storage.chunks(id);
    const chunksMs = performance.now() - readStart;
    await storage.vectors(id, embedder.key);
    const vectorsMs = performance.now() - readStart - chunksMs;
    const base = await KnowledgeBase.open(storage, id);
    const ticks = ticker();
    const start = performance.now();
    const hits = await base.search(query, { embedder, mode: 'hybrid' });
    const ms = performance.now() - start;
    bases.set('big', base);
    return { ms, hits: hits.length, chunksMs, vectorsMs, longestMs: ticks.stop() };
  },

  /**
   * The worker-start case with warming: a base opened and `prepare`d (as when an agent that
   * searches it starts), its first search `afterMs` later (the model's first turn): ms it waits.
   */
  async preparedSearch(id: string, query: string, afterMs: number) {
    const base = await KnowledgeBase.open(storage, id);
    const prepared = base.prepare(embedder);
    await new Promise((resolve) => setTimeout(resolve, afterMs));
    const start = performance.now();
    const hits = await base.search(query, { embedder, mode: 'hybrid' });
    const ms = performance.now() - start;
    await prepared;
    return { ms, hits: hits.length };
  },

  /** Each query searched once, full-text or hybrid: ms each. */
  async searches(queries: string[], mode: 'fulltext' | 'hybrid') {
    const base = bases.get('big')!;
    const ms: number[] = [];
    let found = 0;
    for (const query of queries) {
      const start = performance.now();
      const hits = await base.search(query, {
        limit: 5,
        mode,
        ...(mode === 'hybrid' ? { embedder } : {}),
      });
      ms.push(performance.now() - start);
      found += hits.length > 0 ? 1 : 0;
    }
    return { ms, found };
  },
};

window.knowledgeHarness = harness;
