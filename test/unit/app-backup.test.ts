// Settings → Back up & restore in the worker's runtime (Node over fake-indexeddb): a workspace
// backed up in one "browser" (database) and restored into an empty one and into one in use —
// every session (events and artifact versions), flow, agent, provider and tool server, ids kept,
// never a key or a token; a second restore changes nothing; something here that differs is named
// as a conflict and kept; a bad file is refused whole.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../workers/app-runtime.ts';
import { inProcessLocks } from '../../workers/session-locks.ts';
import { freshDbName, rejectionOf } from '../support/helpers.ts';

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
    ];
    for (const [text, message] of cases)
      expect((await rejectionOf(target.backups.restore(text))).message).toMatch(message);
    expect(await target.listSessions()).toEqual(before);
    expect(await target.agentSpecs.list()).toEqual([]);
  });
});
