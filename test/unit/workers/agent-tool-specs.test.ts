// "Another of your agents as a tool" in the app's worker (Node over fake-indexeddb), its agents on
// the fixture model server over real HTTP: an agent that calls a saved agent answers through it,
// the called agent's words kept on their own branch; a called agent cannot be deleted, and a
// circle through tools is refused with nothing written; the builder form never offers one.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textOf } from '../../../src/index.ts';
import { draftOf, subAgentChoices } from '../../../src/ui/agents/agent-builder-model.ts';
import type { AgentSpecInfo, AgentSpecInput } from '../../../workers/protocol.ts';
import { specOf } from '../../support/agent-specs.ts';
import { appRuntime } from '../../support/app-runtime.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { rejectionOf } from '../../support/helpers.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

async function open() {
  const runtime = appRuntime();
  const provider = await runtime.providers.save({
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${server.url}/v1`,
    defaultModel: 'fixture-text',
  });
  const spec = (overrides: Partial<AgentSpecInput>): AgentSpecInput => {
    const { id: _new, ...fields } = specOf({ providerId: provider.id, tools: [], ...overrides });
    return fields;
  };
  return { runtime, spec };
}

describe('agents calling saved agents as tools (app worker)', () => {
  it('B answers through A; A’s run is on its own branch of B’s session', async () => {
    const { runtime, spec } = await open();
    const a = (
      await runtime.agentSpecs.save(
        spec({ name: 'helper', description: 'Helps', model: 'fixture-agent-helper' }),
      )
    ).saved!;
    const { saved: b, problems } = await runtime.agentSpecs.save(
      spec({ name: 'boss', model: 'fixture-agent-caller', agentToolIds: [a.id] }),
    );
    expect(problems).toEqual([]);
    expect(b!.agentToolIds).toEqual([a.id]);
    const session = await runtime.createSession(b!.agentId);
    const { error } = await runEvents((onEvent) =>
      runtime.runs.send(session.id, 'plan a trip', onEvent),
    );
    expect(error).toBeUndefined();
    const page = await runtime.readLog(session.id, 0, 100);
    const events = page.entries.map((entry) => entry.event).filter((e) => e.content);
    const said = events.map((e) => [e.author, e.branch ?? '', textOf(e.content)]);
    expect(
      said.filter(([, branch]) => branch === '').map(([author, , text]) => [author, text]),
    ).toEqual([
      ['user', 'plan a trip'],
      ['boss', ''],
      ['boss', ''],
      ['boss', 'Through helper: {"result":"Helper done: plan a trip"}'],
    ]);
    expect(
      said.filter(([, branch]) => branch !== '').map(([author, , text]) => [author, text]),
    ).toEqual([
      ['boss', 'plan a trip'],
      ['helper', 'Helper done: plan a trip'],
    ]);
  });

  it('refuses to delete a called agent, and a circle through tools, writing nothing', async () => {
    const { runtime, spec } = await open();
    const a = (await runtime.agentSpecs.save(spec({ name: 'a' }))).saved!;
    const b = (await runtime.agentSpecs.save(spec({ name: 'b', agentToolIds: [a.id] }))).saved!;
    expect((await rejectionOf(runtime.agentSpecs.remove(a.id))).message).toBe(
      'b calls this agent as a tool: remove it there first',
    );
    const circle = await runtime.agentSpecs.save({
      ...spec({ name: 'a' }),
      id: a.id,
      agentToolIds: [b.id],
    });
    expect(circle.problems).toEqual([
      'Agents call each other in a circle (a → b → a): an agent cannot call itself',
    ]);
    const unknown = await runtime.agentSpecs.save(spec({ name: 'c', agentToolIds: ['gone'] }));
    expect(unknown.problems).toEqual(['c calls an agent that no longer exists (gone)']);
    expect((await runtime.agentSpecs.list()).map((s) => [s.name, s.agentToolIds])).toEqual([
      ['a', undefined],
      ['b', [a.id]],
    ]);
  });

  it('exports the called agent with its caller, and imports both with new ids', async () => {
    const { runtime, spec } = await open();
    const a = (await runtime.agentSpecs.save(spec({ name: 'a' }))).saved!;
    const b = (await runtime.agentSpecs.save(spec({ name: 'b', agentToolIds: [a.id] }))).saved!;
    const { json } = await runtime.agentSpecs.exportFile(b.id);
    const imported = (await runtime.agentSpecs.importFile(json)).imported;
    expect(imported.map((s) => s.name)).toEqual(['b_2', 'a_2']);
    expect(imported[0]!.agentToolIds).toEqual([imported[1]!.id]);
  });
});

describe('the builder form’s choices', () => {
  const info = (id: string, over: Partial<AgentSpecInfo> = {}): AgentSpecInfo => ({
    ...specOf({ id, name: id, ...over }),
    agentId: `agent:${id}`,
    updatedAt: 0,
  });

  it('offers neither the agent itself nor one that calls it (a circle through tools)', () => {
    const specs = [
      info('a', { agentToolIds: ['b'] }),
      info('b', { subAgentIds: ['c'] }),
      info('c'),
      info('d'),
    ];
    expect(subAgentChoices(specs, 'c').map((s) => s.id)).toEqual(['d']);
    expect(subAgentChoices(specs, 'a').map((s) => s.id)).toEqual(['b', 'c', 'd']);
  });

  it('keeps the agents it calls in its draft (and none when it calls none)', () => {
    expect(draftOf(info('a', { agentToolIds: ['b'] })).agentToolIds).toEqual(['b']);
    expect('agentToolIds' in draftOf(info('a'))).toBe(false);
  });
});
