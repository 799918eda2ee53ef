// KnowledgeBase.prepare (its search index built ahead of the first search, as the worker does when
// an agent that searches a base starts), on both storages: a search after it still sees what
// storage holds now (another writer came between), a search during it gets what it would have got
// anyway, a big base's build gives the thread back (a timer set when it starts fires before it
// ends), and a base deleted meanwhile is a KnowledgeNotFoundError.

import { afterEach, describe, expect, it } from 'vitest';
import { KnowledgeBase } from '../../../src/knowledge/knowledge-base.ts';
import { rejectionOf } from '../../support/helpers.ts';
import {
  STORAGES,
  closeStorages,
  paragraphs,
  testEmbedder,
} from '../../support/knowledge-fixtures.ts';

afterEach(closeStorages);

const ids = (hits: { chunk: { id: string } }[]) => hits.map((hit) => hit.chunk.id);

describe.each(STORAGES)('KnowledgeBase.prepare ($name)', (kind) => {
  it('leaves searches seeing what storage holds now', async () => {
    const storage = kind.fresh();
    const base = await KnowledgeBase.create(storage, { name: 'Garden' });
    await base.add({ name: 'roses.md', text: paragraphs('rose', 20) });
    const embedder = testEmbedder();
    const reader = await KnowledgeBase.open(kind.reopen(storage), base.id);
    await reader.prepare(embedder);
    // Another writer (another tab) adds a document after the index was built.
    await base.add({ name: 'tulips.md', text: paragraphs('tulip', 5) });
    const hits = await reader.search('tulip3', { embedder, mode: 'fulltext' });
    expect(hits[0]?.document).toBe('tulips.md');
  });

  it('gives a search made while it builds the hits it would give after', async () => {
    const storage = kind.fresh();
    const base = await KnowledgeBase.create(storage, { name: 'Garden' });
    await base.add({ name: 'roses.md', text: paragraphs('rose', 60) });
    const opened = await KnowledgeBase.open(kind.reopen(storage), base.id);
    const preparing = opened.prepare();
    const during = await opened.search('rose7 word12', { limit: 10 });
    await preparing;
    const after = await opened.search('rose7 word12', { limit: 10 });
    expect(ids(during)).toEqual(ids(after));
    expect(during[0]?.chunk.text).toMatch(/\brose7\b/);
  });

  it('gives the thread back while it builds a big base', async () => {
    const storage = kind.fresh();
    const base = await KnowledgeBase.create(storage, {
      name: 'Big',
      chunking: { size: 400, overlap: 0 },
    });
    await base.add({ name: 'big.md', text: paragraphs('topic', 3000, 50) });
    const opened = await KnowledgeBase.open(kind.reopen(storage), base.id);
    let ended = false;
    let timerFired: boolean | undefined;
    const preparing = opened.prepare().then(() => (ended = true));
    // Set once the build is under way (after its reads): fires before the build ends only if
    // the build gives the thread back.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        timerFired = !ended;
        resolve();
      }, 0),
    );
    await preparing;
    expect(timerFired).toBe(true);
    expect(await opened.search('topic2999')).toHaveLength(1);
  }, 60_000);

  it('is a KnowledgeNotFoundError for a base deleted meanwhile', async () => {
    const storage = kind.fresh();
    const base = await KnowledgeBase.create(storage, { name: 'Gone' });
    const opened = await KnowledgeBase.open(storage, base.id);
    await base.delete();
    expect(await rejectionOf(opened.prepare())).toMatchObject({
      name: 'KnowledgeNotFoundError',
    });
  });
});
