// The Knowledge view's form and words: a base's form is checked before it is sent (bad chunking,
// a missing name or model each say what to fix), says before Save what a change will do to the
// documents, takes only the files the worker can read, and says documents and progress plainly.

import { describe, expect, it } from 'vitest';
import {
  CHUNKING_LIMITS,
  DEFAULT_CHUNKING,
  type KnowledgeBaseInfo,
  type KnowledgeDocument,
  type ProviderInfo,
} from '../../../workers/protocol.ts';
import {
  changeEffect,
  defaultEmbeddingModel,
  documentFacts,
  documentStatus,
  draftOf,
  emptyForm,
  formOf,
  formProblems,
  progressText,
  running,
  searchKind,
  sortFiles,
} from '../../../src/ui/knowledge/knowledge-format.ts';

const gemini: ProviderInfo = {
  id: 'p1',
  kind: 'gemini',
  name: 'Gemini',
  baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  defaultModel: 'gemini-2.5-flash',
  updatedAt: 1,
};
const local: ProviderInfo = {
  id: 'p2',
  kind: 'local-gguf',
  name: 'On this device',
  baseUrl: '',
  defaultModel: 'qwen',
  localFile: { name: 'embed.gguf', size: 1 },
  updatedAt: 1,
};

const base: KnowledgeBaseInfo = {
  id: 'kb1',
  name: 'Handbook',
  description: 'Our handbook',
  chunking: { size: 1000, overlap: 150 },
  createdAt: 1,
  updatedAt: 1,
};

describe('the base form', () => {
  it('starts from the default chunking, full-text only, and sends a trimmed draft', () => {
    const form = { ...emptyForm(), name: '  Handbook ', description: ' Policies ' };
    expect(formProblems(form, [])).toEqual([]);
    expect(draftOf(form)).toEqual({
      name: 'Handbook',
      description: 'Policies',
      chunking: DEFAULT_CHUNKING,
      embedding: null,
    });
  });

  it.each([
    [{ name: ' ' }, 'Give the knowledge base a name.'],
    [{ size: '100', overlap: '0' }, 'Chunk size: a whole number of characters from 200 to 8,000.'],
    [
      { size: String(CHUNKING_LIMITS.maxSize + 1) },
      'Chunk size: a whole number of characters from 200 to 8,000.',
    ],
    [{ size: '1e3' }, 'Chunk size: a whole number of characters from 200 to 8,000.'],
    [{ overlap: '-5' }, 'Overlap: a whole number of characters, 0 or more.'],
    [{ overlap: '500' }, 'Overlap: less than half the chunk size.'],
    [
      { providerId: 'gone', model: 'x' },
      'The embedding provider is gone: choose another, or full-text only.',
    ],
    [{ providerId: 'p1', model: '  ' }, 'Name the embedding model.'],
  ])('refuses %j: %s', (patch, problem) => {
    const form = { ...emptyForm(), name: 'KB', ...patch };
    expect(formProblems(form, [gemini])).toEqual([problem]);
  });

  it('sends the embedding model chosen, and a saved base’s form round-trips', () => {
    const form = { ...formOf(base), providerId: 'p1', model: ' gemini-embedding-001 ' };
    expect(draftOf(form).embedding).toEqual({ providerId: 'p1', model: 'gemini-embedding-001' });
    expect(draftOf(formOf(base))).toEqual({
      name: 'Handbook',
      description: 'Our handbook',
      chunking: base.chunking,
      embedding: null,
    });
  });

  it('starts a provider’s model from its kind’s usual one (a local GGUF’s: its file)', () => {
    expect(defaultEmbeddingModel(gemini)).toBe('gemini-embedding-001');
    expect(defaultEmbeddingModel({ ...gemini, kind: 'openai-compatible' })).toBe(
      'text-embedding-3-small',
    );
    expect(defaultEmbeddingModel(local)).toBe('embed.gguf');
    expect(defaultEmbeddingModel(undefined)).toBe('');
  });

  it('says before Save what a change does to the documents', () => {
    expect(changeEffect(base, formOf(base))).toBeUndefined();
    expect(changeEffect(base, { ...formOf(base), name: 'Renamed' })).toBeUndefined();
    expect(changeEffect(base, { ...formOf(base), size: '800' })).toBe(
      'Saving: the new chunking re-indexes every document.',
    );
    expect(changeEffect(base, { ...formOf(base), providerId: 'p1', model: 'm' })).toBe(
      'Saving: the new embedding model embeds every chunk again.',
    );
    const embedded = { ...base, embedding: { providerId: 'p1', model: 'm' } };
    expect(changeEffect(embedded, { ...formOf(embedded), providerId: '', overlap: '100' })).toBe(
      'Saving: the new chunking re-indexes every document, and search becomes full-text only.',
    );
  });
});

describe('files the view takes', () => {
  it('takes text, Markdown, HTML and PDF by name or type, and names the others', () => {
    const files = [
      { name: 'notes.md', type: '' },
      { name: 'page.HTM', type: '' },
      { name: 'scan', type: 'application/pdf' },
      { name: 'photo.png', type: 'image/png' },
      { name: 'sheet.xlsx', type: '' },
    ];
    const { taken, refused } = sortFiles(files);
    expect(taken.map((file) => file.name)).toEqual(['notes.md', 'page.HTM', 'scan']);
    expect(refused).toBe(
      '“photo.png”, “sheet.xlsx” are not text, Markdown, HTML or PDF: left out.',
    );
    expect(sortFiles([{ name: 'a.txt', type: 'text/plain' }]).refused).toBeUndefined();
  });
});

describe('documents and progress in words', () => {
  const doc: KnowledgeDocument = {
    id: 'd1',
    baseId: 'kb1',
    name: 'Manual.pdf',
    kind: 'pdf',
    size: 1_468_006,
    chars: 50_000,
    pages: 12,
    chunkCount: 1,
    status: 'indexed',
    addedAt: 1,
  };

  it('says a document’s facts and status (a failed one, why)', () => {
    expect(documentFacts(doc)).toBe('PDF · 1.4 MB · 12 pages · 1 chunk');
    expect(
      documentFacts({ ...doc, kind: 'markdown', size: 2048, pages: undefined, chunkCount: 3 }),
    ).toBe('Markdown · 2 KB · 3 chunks');
    expect(documentStatus(doc)).toBe('Indexed');
    expect(documentStatus({ ...doc, status: 'failed', error: 'The PDF is encrypted' })).toBe(
      'Failed: The PDF is encrypted',
    );
    expect(documentStatus({ ...doc, status: 'stopped' })).toBe('Stopped before it was indexed');
  });

  it('says where a job is, and whether it still runs', () => {
    const reading = {
      baseId: 'kb1',
      phase: 'reading',
      document: 'a.pdf',
      done: 1,
      total: 3,
    } as const;
    expect(progressText(reading)).toBe('Reading a.pdf (1 of 3 documents)');
    expect(progressText({ ...reading, phase: 'embedding', done: 40, total: 1200 })).toBe(
      'Embedding (40 of 1,200 chunks)',
    );
    expect(progressText({ ...reading, phase: 'failed', error: 'Quota exceeded' })).toBe(
      'Failed: Quota exceeded',
    );
    expect(running(reading)).toBe(true);
    expect(running({ ...reading, phase: 'stopped' })).toBe(false);
    expect(running(undefined)).toBe(false);
  });

  it('says how a base searches', () => {
    expect(searchKind(base, [gemini])).toBe('Full-text search');
    const embedded = { ...base, embedding: { providerId: 'p1', model: 'gemini-embedding-001' } };
    expect(searchKind(embedded, [gemini])).toBe('Hybrid search with gemini-embedding-001 (Gemini)');
    expect(searchKind(embedded, [])).toBe(
      'Hybrid search with gemini-embedding-001 (a removed provider)',
    );
  });
});
