// Knowledge bases in the app's worker (workers/knowledge/knowledge.ts), in Node over
// fake-indexeddb, models and embeddings on the fixture server over real HTTP: files added as a
// job with progress, a file that cannot be read named and the others added, Stop, a search and a
// passage opened in its document; an agent given a base answers from it with numbered sources;
// a base it names that is gone is refused at save time; deleting a document leaves past answers.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AgentSpecInput,
  KnowledgeProgress,
  RuntimeBroadcast,
} from '../../../workers/protocol.ts';
import { AppKnowledge } from '../../../workers/knowledge/knowledge.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { specOf } from '../../support/agent-specs.ts';
import { recordingRuntime } from '../../support/app-runtime.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { flowiseTemplates } from '../../support/flowise-templates.ts';
import {
  InMemoryKnowledgeStorage,
  importFlowiseFlow,
  sourcesOf,
  textOf,
} from '../../../src/index.ts';
import { makePdf } from '../../support/make-pdf.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

async function atlas(): Promise<ArrayBuffer> {
  const pdf = await makePdf([
    ['Zorbia, an atlas.', 'Chapter one is about weather.'],
    ['The rivers of the north run cold in spring.'],
    ['The capital of Zorbia is Quillon, a city of bridges.'],
    ['Trade: wool, salt and amber.'],
  ]);
  return pdf.slice().buffer as ArrayBuffer;
}

async function open() {
  const { runtime, broadcasts } = recordingRuntime();
  const knowledge = runtime.knowledge;
  const progress = () =>
    broadcasts.flatMap((b) => (b.type === 'knowledge-progress' ? [b.progress] : []));
  /** Resolves once the base's job says it ended (done, stopped or failed). */
  const ended = async (baseId: string, from = 0): Promise<KnowledgeProgress> => {
    for (let i = 0; i < 500; i++) {
      const last = progress()
        .slice(from)
        .find((p) => p.baseId === baseId && ['done', 'stopped', 'failed'].includes(p.phase));
      if (last && !(await knowledge.list()).find((b) => b.id === baseId)?.progress) return last;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('the job never ended');
  };
  return { runtime, knowledge, progress, ended };
}

describe('knowledge bases in the worker', () => {
  it('adds files as a job with progress, names a file it cannot read, searches and opens a passage', async () => {
    const { knowledge, progress, ended } = await open();
    const base = await knowledge.create({ name: 'Atlas', description: 'Facts about Zorbia' });
    await knowledge.addFiles(base.id, [
      { name: 'atlas.pdf', type: 'application/pdf', bytes: await atlas() },
      { name: 'broken.pdf', type: 'application/pdf', bytes: bytes('not a pdf at all') },
      { name: 'food.md', type: '', bytes: bytes('# Food\n\n## Fish\n\nVey trout are grilled.') },
    ]);
    const end = await ended(base.id);
    expect(end).toMatchObject({ phase: 'failed', error: expect.stringMatching(/^broken\.pdf: /) });
    expect(progress().some((p) => p.phase === 'reading' && p.document === 'food.md')).toBe(true);

    const [listed] = await knowledge.list();
    expect(listed!.documents.map((d) => [d.name, d.kind, d.status, d.pages])).toEqual([
      ['atlas.pdf', 'pdf', 'indexed', 4],
      ['food.md', 'markdown', 'indexed', undefined],
    ]);
    expect(listed!.chunks).toBeGreaterThanOrEqual(5);

    const [hit] = await knowledge.search([base.id], 'capital of Zorbia');
    expect(hit).toMatchObject({ document: 'atlas.pdf', place: 'page 3' });
    expect(hit!.text).toContain('Quillon');
    const view = await knowledge.open(hit!.chunkId);
    expect(view).toMatchObject({
      document: 'atlas.pdf',
      kind: 'pdf',
      place: 'page 3',
      hasFile: true,
    });
    expect(view.text.slice(view.start, view.end)).toContain('The capital of Zorbia is Quillon');
    const file = await knowledge.file(view.documentId);
    expect(new TextDecoder().decode(file.bytes.slice(0, 5))).toBe('%PDF-');

    // Pasted text, then a bad query and unknown ids: clear errors, nothing changed.
    await knowledge.addText(base.id, { name: 'Notes', text: 'Amber comes from the coast.' });
    await ended(base.id, progress().length);
    expect((await knowledge.search([base.id], 'amber coast'))[0]?.document).toBe('Notes');
    expect((await rejectionOf(knowledge.search([base.id], '   '))).message).toMatch(/empty/);
    expect((await rejectionOf(knowledge.search(['nope'], 'amber'))).name).toBe(
      'KnowledgeNotFoundError',
    );
    expect((await rejectionOf(knowledge.open('nope:1'))).name).toBe('KnowledgeNotFoundError');
    expect((await rejectionOf(knowledge.addFiles(base.id, []))).message).toMatch(/at least one/);
    expect((await knowledge.list())[0]!.documents).toHaveLength(3);
  });

  it('Stop ends the job: documents done stay, the rest are not added', async () => {
    const { knowledge, ended, progress } = await open();
    const base = await knowledge.create({ name: 'Many' });
    const files = Array.from({ length: 30 }, (_, i) => ({
      name: `note-${i}.md`,
      type: 'text/markdown',
      bytes: bytes(`# Note ${i}\n\n${'Words of the note. '.repeat(2000)}`),
    }));
    await knowledge.addFiles(base.id, files);
    await knowledge.stop(base.id);
    expect(await ended(base.id)).toMatchObject({ phase: 'stopped' });
    const [listed] = await knowledge.list();
    expect(listed!.documents.length).toBeLessThan(30);
    expect(listed!.documents.every((d) => d.status === 'indexed')).toBe(true);
    // A new job after Stop runs.
    const from = progress().length;
    await knowledge.addText(base.id, { name: 'After', text: 'Added after the stop.' });
    expect(await ended(base.id, from)).toMatchObject({ phase: 'done' });
  });

  it('an agent given a base searches it and answers with numbered sources, kept when the document goes', async () => {
    const { runtime, knowledge, ended } = await open();
    const base = await knowledge.create({ name: 'Atlas', description: 'Facts about Zorbia' });
    await knowledge.addFiles(base.id, [
      { name: 'atlas.pdf', type: 'application/pdf', bytes: await atlas() },
    ]);
    await ended(base.id);
    const provider = await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Fixture',
      baseUrl: `${server.url}/v1`,
      defaultModel: 'fixture-knowledge',
    });
    const spec = (overrides: Partial<AgentSpecInput>): AgentSpecInput => {
      const { id: _new, ...fields } = specOf({
        providerId: provider.id,
        model: 'fixture-knowledge',
        tools: [],
        ...overrides,
      });
      return fields;
    };
    const refused = await runtime.agentSpecs.save(
      spec({ name: 'lost', knowledgeBaseIds: ['gone'] }),
    );
    expect(refused.problems).toEqual(['A knowledge base it searches no longer exists (gone)']);
    const { saved, problems } = await runtime.agentSpecs.save(
      spec({ name: 'reader', knowledgeBaseIds: [base.id] }),
    );
    expect(problems).toEqual([]);

    const session = await runtime.createSession(saved!.agentId);
    const { error } = await runEvents((onEvent) =>
      runtime.runs.send(session.id, 'What is the capital of Zorbia?', onEvent),
    );
    expect(String(error)).toBe('undefined');
    const events = (await runtime.readLog(session.id, 0, 100)).entries.map((e) => e.event);
    const response = events
      .flatMap((e) => e.content?.parts ?? [])
      .find((p) => p.functionResponse)!.functionResponse!;
    expect(response.name).toBe('search_knowledge');
    const sources = (
      response.response as { sources: { source: number; document: string; place: string }[] }
    ).sources;
    expect(sources[0]).toMatchObject({ source: 1, document: 'atlas.pdf', place: 'page 3' });
    const said = (list: readonly (typeof events)[number][]) =>
      list.filter((e) => e.content?.parts[0]?.text);
    const answer = said(events).at(-1)!.content!.parts[0]!.text!;
    expect(answer).toMatch(/^From atlas\.pdf: .*Quillon.* \[1\]$/);
    // The model was told what the base holds.
    const request = server.requests.filter((r) => r.body?.model === 'fixture-knowledge').at(-1)!;
    expect(request.body.tools[0].function.description).toMatch(/Atlas \(Facts about Zorbia\)/);

    // The document removed: the search finds nothing more, the past answer is as it was.
    const [atlasDoc] = (await knowledge.list())[0]!.documents;
    await knowledge.removeDocument(base.id, atlasDoc!.id);
    expect(await knowledge.search([base.id], 'capital Zorbia')).toEqual([]);
    const after = (await runtime.readLog(session.id, 0, 100)).entries.map((e) => e.event);
    expect(said(after).at(-1)!.content!.parts[0]!.text).toBe(answer);

    // The base deleted: the agent's run fails with a clear error.
    await knowledge.remove(base.id);
    const next = await runEvents((onEvent) =>
      runtime.runs.send(session.id, 'And the rivers?', onEvent),
    );
    expect(String(next.error)).toMatch(/knowledge bases this agent searches were deleted/);
  });

  it('runs Flowise’s own Simple RAG on a base: its agent searches it and answers citing page 3', async () => {
    const { runtime, knowledge, ended } = await open();
    const base = await knowledge.create({ name: 'Atlas' });
    await knowledge.addFiles(base.id, [
      { name: 'atlas.pdf', type: 'application/pdf', bytes: await atlas() },
    ]);
    await ended(base.id);
    const template = flowiseTemplates().find((t) =>
      t.path.endsWith('agentflowsv2/Simple RAG.json'),
    )!;
    const { flow } = importFlowiseFlow(JSON.parse(template.text), 'Simple RAG', {
      knowledge: { 'AI-Paper': base.id },
    });
    const { saved, problems } = await runtime.flows.save(JSON.stringify(flow));
    expect(problems).toEqual([]);
    const session = await runtime.createSession(saved!.id);
    const { error } = await runEvents((onEvent) =>
      runtime.runs.send(session.id, 'What is the capital of Zorbia?', onEvent),
    );
    expect(String(error)).toBe('undefined');
    const events = (await runtime.readLog(session.id, 0, 100)).entries.map((e) => e.event);
    const sources = events
      .flatMap((e) => e.content?.parts ?? [])
      .flatMap((p) => sourcesOf(p.functionResponse?.response));
    expect(sources[0]).toMatchObject({ source: 1, document: 'atlas.pdf', place: 'page 3' });
    const texts = events.flatMap((e) => (e.content?.role === 'model' ? [textOf(e.content)] : []));
    expect(texts.filter(Boolean).at(-1)).toBe(
      'The capital of Zorbia is Quillon, a city of bridges. [1]',
    );
  });

  it('a job on a base another tab is writing fails saying so, and adds nothing', async () => {
    const locks = inProcessLocks();
    const broadcasts: RuntimeBroadcast[] = [];
    const storage = new InMemoryKnowledgeStorage();
    const deps = { storage, locks, broadcast: (b: RuntimeBroadcast) => broadcasts.push(b) };
    const embedder = async () => {
      throw new Error('no embedding here');
    };
    const tab = new AppKnowledge({ ...deps, embedder });
    const base = await tab.create({ name: 'Shared' });
    // The other tab holds the base's lock while this one adds.
    let release = () => {};
    const held = locks.withLock(
      `knowledge:${base.id}`,
      () => new Promise<void>((r) => (release = r)),
    );
    await tab.addText(base.id, { name: 'Mine', text: 'Written while the other tab indexes.' });
    await expect
      .poll(() =>
        broadcasts.find((b) => b.type === 'knowledge-progress' && b.progress.phase === 'failed'),
      )
      .toMatchObject({
        progress: {
          error: expect.stringMatching(
            /^Another tab is adding to or re-indexing this knowledge base/,
          ),
        },
      });
    expect((await tab.list())[0]!.documents).toEqual([]);
    release();
    await held;
  });
});
