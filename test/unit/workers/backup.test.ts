// Settings → Back up & restore in the worker's runtime (Node over fake-indexeddb): a workspace
// backed up in one "browser" (database) and restored into an empty one and into one in use — every
// session (events and artifact versions, its dates and its traces), flow, agent, provider and tool
// server, ids kept, never a key or a token; a version 1 file still restores; a second restore
// changes nothing; something here that differs is named as a conflict and kept; a bad file is
// refused whole.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { recordingRuntime } from '../../support/app-runtime.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { makePdf } from '../../support/make-pdf.ts';

function open() {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => undefined,
    timing: { thinkMs: 0, chunkDelayMs: 0 },
  });
}

const KEY = 'sk-backup-secret-9f3a';
const TOKEN = 'Bearer mcp-backup-token-77';

/** A workspace with a session and its artifact, a flow, a provider with a key, an agent on it and a tool server with a token. */
async function workspace() {
  const runtime = open();
  const session = await runtime.createSession('state-keeper');
  await runtime.runs.send(session.id, 'set color to red', () => {});
  await runtime.runs.send(session.id, 'save todo.txt as buy milk', () => {});
  const flow = await runtime.flows.duplicate('example:support');
  const provider = await runtime.providers.save({
    kind: 'openai-compatible',
    name: 'Remote',
    baseUrl: 'http://127.0.0.1:9/v1',
    defaultModel: 'm',
    apiKey: KEY,
  });
  const { saved: agent } = await runtime.agentSpecs.save({
    name: 'helper',
    description: '',
    providerId: provider.id,
    model: '',
    instruction: 'Help.',
    tools: ['calculator'],
    subAgentIds: [],
    resumable: true,
  });
  const server = await runtime.toolServers.save({
    name: 'Local MCP',
    url: 'http://127.0.0.1:9/mcp',
    headers: [{ name: 'Authorization', value: TOKEN }],
  });
  // Its title as it is now (the first message named it).
  const titled = (await runtime.listSessions()).find((summary) => summary.id === session.id)!;
  return { runtime, session: titled, flow, provider, agent: agent!, server };
}

/** Waits until the clock has passed `time` (ms). */
async function laterThan(time: number): Promise<void> {
  while (Date.now() <= time) await new Promise((resolve) => setTimeout(resolve, 1));
}

describe('backup and restore', () => {
  it('restores every session, flow, agent, provider and tool server into an empty browser, ids kept, secrets left out', async () => {
    const { runtime, session, flow, provider, agent, server } = await workspace();
    const { json, filename } = await runtime.backups.backup();
    expect(filename).toMatch(/^trellis-backup-\d{4}-\d\d-\d\d\.json$/);
    expect(json).not.toContain(KEY);
    expect(json).not.toContain(TOKEN);
    expect(await runtime.backups.lastBackupAt()).toBeGreaterThan(0);

    const fresh = open();
    const report = await fresh.backups.restore(json);
    expect(report.conflicts).toEqual([]);
    expect(report.restored).toEqual(
      expect.arrayContaining([
        'provider Remote',
        'tool server Local MCP',
        `flow ${flow.name}`,
        'agent helper',
        `session ${session.title}`,
      ]),
    );
    // The session, whole: its conversation, state and artifact.
    const opened = await fresh.openSessionSummary(session.id);
    expect(opened.summary.title).toBe(session.title);
    expect(opened.state).toMatchObject({ color: 'red' });
    const artifact = await fresh.loadArtifact(session.id, 'todo.txt');
    expect(artifact?.text ?? artifact?.inlineData).toBeTruthy();
    // The rest by id; the provider without its key, the server without its token's value.
    expect((await fresh.flows.get(flow.id)).name).toBe(flow.name);
    expect((await fresh.agentSpecs.list()).map((spec) => spec.id)).toContain(agent.id);
    const providers = await fresh.providers.list();
    expect(providers.find((p) => p.id === provider.id)).toMatchObject({ name: 'Remote' });
    expect(JSON.stringify(providers)).not.toContain(KEY);
    const servers = await fresh.toolServers.list();
    expect(servers.find((s) => s.id === server.id)?.headers.map((h) => h.name)).toEqual([
      'Authorization',
    ]);

    // Restored again: nothing new, nothing changed.
    const again = await fresh.backups.restore(json);
    expect(again.restored).toEqual([]);
    expect(again.conflicts).toEqual([]);
    expect(again.unchanged).toBeGreaterThanOrEqual(5);
  });

  it('keeps each session’s traces and its dates (created, last updated) as the session list shows them', async () => {
    const { runtime, session } = await workspace();
    const invocations = (await runtime.openSessionSummary(session.id)).activePath.map(
      (turn) => turn.invocationId,
    );
    expect(invocations.length).toBe(2);
    const traced = await Promise.all(
      invocations.map((id) => runtime.traces.trace(session.id, id).then((t) => t.spans)),
    );
    expect(traced.every((spans) => spans.length > 0)).toBe(true);
    const { json } = await runtime.backups.backup();
    // The restore comes later than the session's last change, so that "now" would show.
    await laterThan(session.lastUpdateTime);

    const fresh = open();
    await fresh.backups.restore(json);
    const listed = (await fresh.listSessions()).find((summary) => summary.id === session.id)!;
    expect(listed.createdAt).toBe(session.createdAt);
    expect(listed.lastUpdateTime).toBe(session.lastUpdateTime);
    for (const [index, id] of invocations.entries())
      expect((await fresh.traces.trace(session.id, id)).spans).toEqual(traced[index]);
    const otlp = await fresh.traces.exportOtlp(session.id);
    expect(JSON.parse(otlp.json).resourceSpans[0].scopeSpans[0].spans.length).toBe(
      traced.flat().length,
    );
  });

  it('restores a version 1 backup (no traces then), dated by each session’s last event', async () => {
    const { runtime, session } = await workspace();
    const file = JSON.parse((await runtime.backups.backup()).json);
    const v1 = {
      ...file,
      version: 1,
      sessions: file.sessions.map(
        ({ spans: _spans, lastUpdateTime: _updated, ...rest }: Record<string, unknown>) => rest,
      ),
    };
    await laterThan(session.lastUpdateTime);
    const fresh = open();
    const report = await fresh.backups.restore(JSON.stringify(v1));
    expect(report.restored).toContain(`session ${session.title}`);
    const listed = (await fresh.listSessions()).find((summary) => summary.id === session.id)!;
    expect(listed.createdAt).toBe(session.createdAt);
    expect(listed.lastUpdateTime).toBe(session.lastUpdateTime);
    expect((await fresh.openSessionSummary(session.id)).state).toMatchObject({ color: 'red' });
  });

  it('merges into a browser in use: what differs here is named as a conflict and kept', async () => {
    const { runtime, flow, session } = await workspace();
    const { json } = await runtime.backups.backup();
    const target = open();
    await target.backups.restore(json);
    // Here, the flow is edited and the session goes on.
    const edited = { ...(await target.flows.get(flow.id)).flow, description: 'mine' };
    const saved = await target.flows.save(JSON.stringify(edited), flow.id);
    expect(saved.problems).toEqual([]);
    await target.runs.send(session.id, 'set size to large', () => {});
    const report = await target.backups.restore(json);
    expect(report.conflicts).toEqual([
      expect.stringMatching(new RegExp(`^The flow "${flow.name}" here differs`)),
      expect.stringMatching(/^The session ".*" here differs .*yours is kept$/),
    ]);
    expect((await target.flows.get(flow.id)).flow.description).toBe('mine');
    expect((await target.openSessionSummary(session.id)).state).toMatchObject({ size: 'large' });
  });

  it('keeps what memory holds of each session, made again from the restored events', async () => {
    const { runtime, session } = await workspace();
    const count = await runtime.memory.addSession(session.id);
    expect(count).toBeGreaterThan(0);
    const remembered = (await runtime.memory.list()).sessions;
    const { json } = await runtime.backups.backup();
    expect(JSON.parse(json).sessions[0].memory).toHaveLength(count);

    const fresh = open();
    await fresh.backups.restore(json);
    const restored = (await fresh.memory.list()).sessions;
    const texts = (list: typeof remembered) =>
      list.map((s) => [s.sessionId, s.memories.map((m) => [m.eventId, m.text])]);
    expect(texts(restored)).toEqual(texts(remembered));
    // A session whose memory was all deleted comes back with none.
    await runtime.memory.removeSession(session.id);
    const other = open();
    await other.backups.restore((await runtime.backups.backup()).json);
    expect((await other.memory.list()).sessions).toEqual([]);
  });

  it('refuses a bad file whole, saying why, and changes nothing', async () => {
    const { runtime } = await workspace();
    const { json } = await runtime.backups.backup();
    const target = open();
    const before = await target.listSessions();
    const file = JSON.parse(json);
    const cases: [string, RegExp][] = [
      ['not json', /not JSON/],
      [JSON.stringify({ format: 'other' }), /not a Trellis backup/],
      [JSON.stringify({ ...file, version: 9 }), /version 9/],
      [JSON.stringify({ ...file, flows: 'x' }), /"flows" is not a list/],
      [
        JSON.stringify({ ...file, flows: [file.flows[0], file.flows[0]] }),
        /"flows" has an id twice/,
      ],
      [
        JSON.stringify({
          ...file,
          sessions: [{ ...file.sessions[0], file: '{"events": 5}' }],
        }),
        /session ".*" in it is not valid/,
      ],
      [
        JSON.stringify({
          ...file,
          sessions: [
            { ...file.sessions[0], spans: [{ ...file.sessions[0].spans[0], spanId: 'x' }] },
          ],
        }),
        /span #1 of session #1 is not valid: its span id/,
      ],
      [
        JSON.stringify({ ...file, sessions: [{ ...file.sessions[0], lastUpdateTime: 'today' }] }),
        /last update that is not a time/,
      ],
      [
        JSON.stringify({ ...file, sessions: [{ ...file.sessions[0], memory: [{ id: 1 }] }] }),
        /the memory of session #1 is not a list of its events' ids/,
      ],
      [
        JSON.stringify({ ...file, sessions: [{ ...file.sessions[0], memory: 'all' }] }),
        /the memory of session #1 is not a list/,
      ],
    ];
    for (const [text, message] of cases)
      expect((await rejectionOf(target.backups.restore(text))).message).toMatch(message);
    expect(await target.listSessions()).toEqual(before);
    expect(await target.agentSpecs.list()).toEqual([]);
  });
});

// Knowledge bases (issue 34): a base with a PDF and a Markdown file backed up and restored into a
// fresh browser, through the app's own knowledge room: a search finds the same passage, the viewer
// opens it, the original file downloads as it was; no vector and no key travels; a second restore
// changes nothing; a backup of before knowledge (version 2) restores.
describe('backup and restore of knowledge bases', () => {
  const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

  /** A runtime with a base "Atlas" of a PDF and a Markdown file, indexed. */
  async function withKnowledge() {
    const { runtime, broadcasts } = recordingRuntime();
    const base = await runtime.knowledge.create({ name: 'Atlas', description: 'Zorbia' });
    const pdf = await makePdf([
      ['Zorbia, an atlas.', 'Chapter one is about weather.'],
      ['The capital of Zorbia is Quillon, a city of bridges.'],
    ]);
    await runtime.knowledge.addFiles(base.id, [
      { name: 'atlas.pdf', type: 'application/pdf', bytes: pdf.slice().buffer as ArrayBuffer },
      {
        name: 'food.md',
        type: 'text/markdown',
        bytes: bytes('# Food\n\n## Fish\n\nVey trout are grilled.'),
      },
    ]);
    for (let i = 0; i < 500; i++) {
      const ended = broadcasts.some(
        (b) => b.type === 'knowledge-progress' && b.progress.phase === 'done',
      );
      if (ended && !(await runtime.knowledge.list())[0]!.progress) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect((await runtime.knowledge.list())[0]!.documents.map((d) => d.status)).toEqual([
      'indexed',
      'indexed',
    ]);
    return { runtime, base, pdf };
  }

  it('restores a base into a fresh browser: the same passages found, opened and downloaded', async () => {
    const { runtime, base, pdf } = await withKnowledge();
    const [before] = await runtime.knowledge.search([base.id], 'capital of Zorbia');
    const { json } = await runtime.backups.backup();
    const file = JSON.parse(json);
    expect(file.version).toBe(3);
    expect(file.knowledge).toHaveLength(1);
    expect(json).not.toMatch(/vector/i);

    const { runtime: fresh, broadcasts } = recordingRuntime();
    const report = await fresh.backups.restore(json);
    expect(report.conflicts).toEqual([]);
    expect(report.restored).toEqual(
      expect.arrayContaining([
        'knowledge base Atlas',
        'knowledge document atlas.pdf',
        'knowledge document food.md',
      ]),
    );
    expect(broadcasts).toContainEqual({ type: 'knowledge-changed' });
    const [listed] = await fresh.knowledge.list();
    expect(listed).toMatchObject({ id: base.id, name: 'Atlas', description: 'Zorbia' });
    expect(listed!.documents.map((d) => [d.name, d.kind, d.pages])).toEqual([
      ['atlas.pdf', 'pdf', 2],
      ['food.md', 'markdown', undefined],
    ]);

    const [hit] = await fresh.knowledge.search([base.id], 'capital of Zorbia');
    expect(hit).toEqual(before);
    expect(hit).toMatchObject({ document: 'atlas.pdf', place: 'page 2' });
    const view = await fresh.knowledge.open(hit!.chunkId);
    expect(view).toMatchObject({ document: 'atlas.pdf', kind: 'pdf', hasFile: true });
    expect(view.text.slice(view.start, view.end)).toContain('The capital of Zorbia is Quillon');
    const download = await fresh.knowledge.file(view.documentId);
    expect(download.name).toBe('atlas.pdf');
    expect(new Uint8Array(download.bytes)).toEqual(pdf);
    const [fish] = await fresh.knowledge.search([base.id], 'trout');
    expect(fish).toMatchObject({ document: 'food.md', place: 'Food › Fish' });

    // Restored again: nothing new, nothing changed.
    const again = await fresh.backups.restore(json);
    expect(again.restored).toEqual([]);
    expect(again.conflicts).toEqual([]);
    expect(again.unchanged).toBeGreaterThanOrEqual(3);
    expect((await fresh.knowledge.list())[0]!.chunks).toBe(listed!.chunks);
  });

  it('merges: a document deleted here comes back; a base changed here is a conflict and kept', async () => {
    const { runtime, base } = await withKnowledge();
    const { json } = await runtime.backups.backup();
    const [pdfDoc, mdDoc] = (await runtime.knowledge.list())[0]!.documents;
    // Into the browser it came from: everything is here already, as it is.
    const here = await runtime.backups.restore(json);
    expect(here.restored).toEqual([]);
    expect(here.conflicts).toEqual([]);
    await runtime.knowledge.removeDocument(base.id, mdDoc!.id);
    const back = await runtime.backups.restore(json);
    expect(back.restored).toEqual(['knowledge document food.md']);
    expect((await runtime.knowledge.search([base.id], 'trout'))[0]?.document).toBe('food.md');

    await runtime.knowledge.update(base.id, { name: 'My atlas' });
    await runtime.knowledge.removeDocument(base.id, pdfDoc!.id);
    const report = await runtime.backups.restore(json);
    expect(report.restored).toEqual([]);
    expect(report.conflicts).toEqual([
      expect.stringMatching(/^The knowledge base "My atlas" here differs .*yours is kept/),
    ]);
    expect((await runtime.knowledge.list())[0]!.documents.map((d) => d.name)).toEqual(['food.md']);
  });

  it('names an embedding provider by id only, and a restored base is searched by its words until re-embedded', async () => {
    const { runtime } = recordingRuntime();
    const provider = await runtime.providers.save({
      kind: 'openai-compatible',
      name: 'Embeddings',
      baseUrl: 'http://127.0.0.1:9/v1',
      defaultModel: 'm',
      apiKey: KEY,
    });
    const embedding = { providerId: provider.id, model: 'embed-1' };
    const { json: plain } = await (await withKnowledge()).runtime.backups.backup();
    const file = JSON.parse(plain);
    file.knowledge[0].base.embedding = embedding;
    file.providers = JSON.parse((await runtime.backups.backup()).json).providers;
    const json = JSON.stringify(file);
    expect(json).not.toContain(KEY);

    const { runtime: fresh } = recordingRuntime();
    await fresh.backups.restore(json);
    const [listed] = await fresh.knowledge.list();
    expect(listed).toMatchObject({ embedding, embedded: 0 });
    // Its provider is unreachable and it has no vectors: a search is by its words.
    const [hit] = await fresh.knowledge.search([listed!.id], 'capital of Zorbia');
    expect(hit?.text).toContain('Quillon');
  });

  it('restores a version 2 backup, of before knowledge bases', async () => {
    const { runtime, session } = await workspace();
    const { knowledge: _none, ...file } = JSON.parse((await runtime.backups.backup()).json);
    const fresh = open();
    const report = await fresh.backups.restore(JSON.stringify({ ...file, version: 2 }));
    expect(report.restored).toContain(`session ${session.title}`);
    expect(await fresh.knowledge.list()).toEqual([]);
  });
});
