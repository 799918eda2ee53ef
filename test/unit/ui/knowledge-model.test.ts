// The Knowledge view's model (KnowledgeModel): over the worker's real knowledge room (Node, fake-
// indexeddb), a base made, a file added as a job whose progress the model follows, a search, a
// passage opened, and a removed document's passage refused as gone (what the viewer says as a
// removal); over a hand-written room, the cases the real one cannot be made to show on cue: it
// reads the bases when started and again when any tab changes them; a refused action says why
// and changes nothing; files the worker cannot read are left out and named; only the latest
// search shows; a page open on a base another tab deleted closes.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import type {
  KnowledgeApi,
  KnowledgeBaseDraft,
  KnowledgeBaseSummary,
  KnowledgeFileInput,
  KnowledgeSearchHit,
  ProviderInfo,
  RuntimeBroadcast,
} from '../../../workers/protocol.ts';
import { DEFAULT_CHUNKING } from '../../../workers/protocol.ts';
import { KnowledgeModel } from '../../../src/ui/knowledge/knowledge-model.ts';
import { isGone } from '../../../src/ui/knowledge/answer-sources.ts';
import { recordingRuntime } from '../../support/app-runtime.ts';

/** The worker's knowledge room as far as the view uses it: bases in memory, broadcasts queued. */
class FakeKnowledge implements KnowledgeApi {
  bases: KnowledgeBaseSummary[] = [];
  added: { baseId: string; files: KnowledgeFileInput[] }[] = [];
  broadcasts: RuntimeBroadcast[] = [];
  /** Answers to searches, by query; a pending promise holds one back. */
  answers = new Map<string, Promise<KnowledgeSearchHit[]>>();
  private ids = 0;

  async list() {
    return structuredClone(this.bases);
  }
  async create(draft: KnowledgeBaseDraft) {
    if (this.bases.some((base) => base.name === draft.name))
      throw new Error(`A knowledge base is named “${draft.name}” already`);
    const base: KnowledgeBaseSummary = {
      id: `kb${++this.ids}`,
      name: draft.name,
      description: draft.description ?? '',
      chunking: draft.chunking ?? DEFAULT_CHUNKING,
      ...(draft.embedding ? { embedding: draft.embedding } : {}),
      createdAt: 1,
      updatedAt: 1,
      documents: [],
      chunks: 0,
    };
    this.bases.push(base);
    this.broadcasts.push({ type: 'knowledge-changed' });
    return base;
  }
  async update(baseId: string, draft: Partial<KnowledgeBaseDraft>) {
    const base = this.find(baseId);
    Object.assign(base, { name: draft.name ?? base.name });
    return base;
  }
  async remove(baseId: string) {
    this.find(baseId);
    this.bases = this.bases.filter((base) => base.id !== baseId);
    this.broadcasts.push({ type: 'knowledge-changed' });
  }
  async addFiles(baseId: string, files: KnowledgeFileInput[]) {
    this.find(baseId);
    this.added.push({ baseId, files });
  }
  async addText(baseId: string, input: { name: string; text: string }) {
    this.find(baseId);
    this.added.push({
      baseId,
      files: [{ name: input.name, type: 'text/plain', bytes: new ArrayBuffer(0) }],
    });
  }
  async stop() {}
  async reindex() {}
  async removeDocument() {}
  search(_: string[], query: string) {
    return this.answers.get(query) ?? Promise.resolve([]);
  }
  async open(): Promise<never> {
    throw new Error('not here');
  }
  async file(): Promise<never> {
    throw new Error('not here');
  }
  private find(baseId: string) {
    const base = this.bases.find((item) => item.id === baseId);
    if (!base) throw new Error(`Knowledge base ${baseId} no longer exists`);
    return base;
  }
}

function pageOf() {
  const knowledge = new FakeKnowledge();
  const providers: ProviderInfo[] = [];
  const listeners = new Set<(message: RuntimeBroadcast) => void>();
  const model = new KnowledgeModel({
    runtime: { knowledge, listProviders: async () => providers },
    onBroadcast: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  /** Delivers what the worker broadcast, as the channel does, and lets the model read. */
  const hear = async (...extra: RuntimeBroadcast[]) => {
    for (const message of [...knowledge.broadcasts.splice(0), ...extra])
      for (const listener of listeners) listener(message);
    await new Promise((resolve) => setTimeout(resolve, 200));
  };
  return { model, knowledge, hear, listeners };
}

const draft = (name: string): KnowledgeBaseDraft => ({ name, chunking: DEFAULT_CHUNKING });

describe('KnowledgeModel', () => {
  it('reads the bases when started, again when another tab changes them, and stops listening', async () => {
    const { model, knowledge, hear, listeners } = pageOf();
    await knowledge.create(draft('Handbook'));
    await model.start();
    expect(model.snapshot.loaded).toBe(true);
    expect(model.snapshot.bases.map((base) => base.name)).toEqual(['Handbook']);
    await knowledge.create(draft('Notes')); // Another tab.
    await hear();
    expect(model.snapshot.bases.map((base) => base.name)).toEqual(['Handbook', 'Notes']);
    model.stop();
    expect(listeners.size).toBe(0);
  });

  it('opens the page of a base it makes, and says why a refused one was not made', async () => {
    const { model } = pageOf();
    await model.start();
    expect(await model.create(draft('Handbook'))).toBe(true);
    expect(model.open?.name).toBe('Handbook');
    expect(model.snapshot.status).toBe('Made “Handbook”. Add documents to it.');
    model.openBase(undefined);
    expect(await model.create(draft('Handbook'))).toBe(false);
    expect(model.snapshot.error).toBe('A knowledge base is named “Handbook” already');
    expect(model.snapshot.bases).toHaveLength(1);
    expect(model.open).toBeUndefined();
    expect(model.snapshot.busy).toBe(false);
  });

  it('sends the files the worker can read, and names the ones it left out', async () => {
    const { model, knowledge } = pageOf();
    await model.start();
    await model.create(draft('Handbook'));
    const id = model.open!.id;
    const files = [
      new File(['# Setup'], 'setup.md', { type: '' }),
      new File(['png'], 'photo.png', { type: 'image/png' }),
    ];
    expect(await model.addFiles(id, files)).toBe(true);
    expect(knowledge.added).toHaveLength(1);
    const [sent] = knowledge.added[0]!.files;
    expect(sent!.name).toBe('setup.md');
    expect(new TextDecoder().decode(sent!.bytes)).toBe('# Setup');
    expect(model.snapshot.status).toBe('Adding “setup.md”…');
    expect(model.snapshot.error).toBe('“photo.png” is not text, Markdown, HTML or PDF: left out.');

    // Nothing it can read: nothing is sent.
    expect(await model.addFiles(id, [files[1]!])).toBe(false);
    expect(knowledge.added).toHaveLength(1);
  });

  it('asks pasted text for a name and some text before sending it', async () => {
    const { model, knowledge } = pageOf();
    await model.start();
    await model.create(draft('Notes'));
    const id = model.open!.id;
    expect(await model.addText(id, '', 'some text')).toBe(false);
    expect(await model.addText(id, 'Minutes', '   ')).toBe(false);
    expect(model.snapshot.error).toBe('Give the pasted text a name, and some text.');
    expect(knowledge.added).toEqual([]);
    expect(await model.addText(id, ' Minutes ', 'We met.')).toBe(true);
    expect(knowledge.added[0]!.files[0]!.name).toBe('Minutes');
  });

  it('follows a job’s progress, and reads the documents when it ends', async () => {
    const { model, knowledge, hear } = pageOf();
    await model.start();
    await model.create(draft('Handbook'));
    const base = model.open!;
    await model.addFiles(base.id, [new File(['x'], 'a.md')]);
    expect(model.snapshot.status).toBe('Adding “a.md”…');
    const reading = { baseId: base.id, phase: 'reading', document: 'a.pdf', done: 0, total: 2 };
    await hear({ type: 'knowledge-progress', progress: reading } as RuntimeBroadcast);
    expect(model.progressOf(model.open!)).toEqual(reading);
    knowledge.bases[0]!.chunks = 12;
    await hear({
      type: 'knowledge-progress',
      progress: { ...reading, phase: 'done', done: 2 },
    } as RuntimeBroadcast);
    expect(model.progressOf(model.open!)?.phase).toBe('done');
    expect(model.snapshot.status).toBeUndefined();
    expect(model.open!.chunks).toBe(12);
  });

  it('shows only the answer to the latest search', async () => {
    const { model, knowledge } = pageOf();
    await model.start();
    await model.create(draft('Handbook'));
    const id = model.open!.id;
    let answerSlow!: (hits: KnowledgeSearchHit[]) => void;
    knowledge.answers.set('slow', new Promise((resolve) => (answerSlow = resolve)));
    const hit = (text: string): KnowledgeSearchHit => ({
      chunkId: `d:${text}`,
      documentId: 'd',
      document: 'a.md',
      place: 'part 1',
      text,
      score: 1,
    });
    knowledge.answers.set('fast', Promise.resolve([hit('fast')]));
    const slow = model.search(id, 'slow');
    await model.search(id, 'fast');
    answerSlow([hit('slow')]);
    await slow;
    expect(model.snapshot.search?.query).toBe('fast');
    expect(model.snapshot.search?.hits?.map((h) => h.text)).toEqual(['fast']);

    knowledge.answers.set(
      'boom',
      Promise.reject(new Error('The embedding model is not reachable')),
    );
    await model.search(id, 'boom');
    expect(model.snapshot.search).toMatchObject({
      query: 'boom',
      hits: undefined,
      searching: false,
      error: 'The embedding model is not reachable',
    });
  });

  it('closes the page of a base another tab deleted, and says a failed delete', async () => {
    const { model, knowledge, hear } = pageOf();
    await model.start();
    await model.create(draft('Handbook'));
    const base = model.open!;
    await knowledge.remove(base.id); // Another tab.
    await hear();
    expect(model.open).toBeUndefined();
    expect(model.snapshot.bases).toEqual([]);
    expect(await model.remove(base)).toBe(false);
    expect(model.snapshot.error).toBe(`Knowledge base ${base.id} no longer exists`);
  });
});

describe('KnowledgeModel over the worker’s knowledge room', () => {
  it('makes a base, follows adding a file to its end, searches, opens a passage, and finds a removed one gone', async () => {
    const { runtime, broadcasts } = recordingRuntime();
    const listeners = new Set<(message: RuntimeBroadcast) => void>();
    const model = new KnowledgeModel({
      runtime: { knowledge: runtime.knowledge, listProviders: () => runtime.providers.list() },
      onBroadcast: (listener) => {
        listeners.add(listener);
        return () => listeners.delete(listener);
      },
    });
    const hear = () => {
      for (const message of broadcasts.splice(0))
        for (const listener of listeners) listener(message);
    };
    await model.start();
    expect(await model.create({ name: 'Handbook', description: 'Staff policies' })).toBe(true);
    const baseId = model.open!.id;
    const file = new File(
      [
        '# Leave\n\nStaff get 25 days of paid leave a year.\n\n# Parking\n\nVisitors park on level 2.\n',
      ],
      'policy.md',
      { type: 'text/markdown' },
    );
    expect(await model.addFiles(baseId, [file])).toBe(true);
    for (let i = 0; i < 300 && model.progressOf(model.open!)?.phase !== 'done'; i++) {
      hear();
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise((resolve) => setTimeout(resolve, 250)); // The read after the job's end.
    const [doc] = model.open!.documents;
    expect(doc).toMatchObject({ name: 'policy.md', kind: 'markdown', status: 'indexed' });
    expect(model.snapshot.status).toBeUndefined();

    await model.search(baseId, 'paid leave');
    const [hit] = model.snapshot.search!.hits!;
    expect(hit).toMatchObject({ document: 'policy.md', place: 'Leave' });
    const view = await model.openChunk(hit!.chunkId);
    expect(view.text.slice(view.start, view.end)).toContain('25 days of paid leave');

    expect(await model.removeDocument(baseId, doc!.id, doc!.name)).toBe(true);
    expect(model.snapshot.status).toBe('Removed “policy.md”.');
    expect(model.open!.documents).toEqual([]);
    const gone = await model.openChunk(hit!.chunkId).catch((error: unknown) => error);
    expect(isGone(gone)).toBe(true);
    expect(isGone(new Error('The embedding model is not reachable'))).toBe(false);
    model.stop();
  });
});
