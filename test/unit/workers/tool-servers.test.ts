// Settings → Tool servers in the runtime the worker runs (Node over fake-indexeddb), against a
// real MCP server and the fixture model server over HTTP: a server added with a bearer token
// (kept, shown masked, never in events or files), Test connection listing its tools, an agent of
// the builder calling one of them through its model, a tool switched off, an export that names
// the server by address only, and a server in use that cannot be removed.

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { freshDbName, rejectionOf } from '../../support/helpers.ts';
import { MCP_TOKEN, mcpAndModelServers } from '../../support/mcp-server.ts';

const servers = mcpAndModelServers();

function open() {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => undefined,
    modelHttp: { maxRetries: 0 },
  });
}

async function agentWithServer(
  runtime: AppRuntime,
  serverId: string,
  { policies = false }: { policies?: boolean } = {},
) {
  // Without policies set, the tests of calls say in advance that echo may always run.
  if (!policies) await runtime.toolServers.setPolicy('echo', 'always');
  const provider = await runtime.providers.save({
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${servers.models.url}/v1`,
    defaultModel: 'fixture-mcp-echo',
  });
  const { saved, problems } = await runtime.agentSpecs.save({
    name: 'echoer',
    description: '',
    providerId: provider.id,
    model: '',
    instruction: 'Use the echo tool.',
    tools: [],
    subAgentIds: [],
    resumable: true,
    toolServers: [{ serverId }],
  });
  expect(problems).toEqual([]);
  return saved!;
}

describe('tool servers', () => {
  it('keeps a bearer token, shows it masked, and lists the server’s tools', async () => {
    const runtime = open();
    const server = await runtime.toolServers.save({
      name: 'Local MCP',
      url: servers.mcp.url,
      headers: [{ name: 'Authorization', value: `Bearer ${MCP_TOKEN}` }],
    });
    expect(server.headers).toEqual([{ name: 'Authorization', hint: `••••${MCP_TOKEN.slice(-4)}` }]);
    expect(JSON.stringify(await runtime.toolServers.list())).not.toContain(MCP_TOKEN);
    // Saved again without the value: the stored token stays.
    await runtime.toolServers.save({
      id: server.id,
      name: 'Local MCP',
      url: servers.mcp.url,
      headers: [{ name: 'Authorization' }],
    });
    const tested = await runtime.toolServers.test({
      id: server.id,
      name: 'Local MCP',
      url: servers.mcp.url,
      headers: [{ name: 'Authorization' }],
    });
    expect(tested.ok && tested.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining(['echo', 'secret']),
    );
  });

  it('says what is wrong with a server that cannot be used', async () => {
    const runtime = open();
    expect(await runtime.toolServers.test({ name: 'x', url: 'ftp://example.com' })).toEqual({
      ok: false,
      message: 'The address must start with http:// or https://',
    });
    const down = await runtime.toolServers.test({ name: 'x', url: 'http://127.0.0.1:9/mcp' });
    expect(down.ok).toBe(false);
    expect(!down.ok && down.message).toMatch(
      /Could not reach the MCP server at http:\/\/127\.0\.0\.1:9\/mcp/,
    );
    expect(await runtime.toolServers.list()).toEqual([]);
  });

  it('gives an agent of the builder the server’s tools; its model calls one, and reads the result', async () => {
    const runtime = open();
    const server = await runtime.toolServers.save({
      name: 'Local MCP',
      url: servers.mcp.url,
      headers: [{ name: 'Authorization', value: `Bearer ${MCP_TOKEN}` }],
    });
    const agent = await agentWithServer(runtime, server.id);
    const session = await runtime.createSession(agent.agentId);
    const before = servers.mcp.calls.length;
    const seen: unknown[] = [];
    await runtime.runs.send(session.id, 'Say hello through the tool', (event) => seen.push(event));
    expect(servers.mcp.calls.slice(before)).toEqual([
      { name: 'echo', args: { text: 'hello from the model' } },
    ]);
    const opening = await runtime.openSessionSummary(session.id);
    const texts = opening.activeTail.map(({ event }) =>
      (event.content?.parts ?? []).map((part) => part.text ?? '').join(''),
    );
    expect(texts.filter(Boolean).at(-1)).toBe('The MCP server answered.');
    expect(JSON.stringify([seen, opening])).not.toContain(MCP_TOKEN);

    // The agent file names the server by address, never its token.
    const file = await runtime.agentSpecs.exportFile(agent.id);
    expect(JSON.parse(file.json).toolServers).toEqual([
      { id: server.id, name: 'Local MCP', url: servers.mcp.url },
    ]);
    expect(file.json).not.toContain(MCP_TOKEN);
    // And while the agent uses it, the server stays.
    expect((await rejectionOf(runtime.toolServers.remove(server.id))).message).toMatch(
      /used by echoer/,
    );
  });

  it('keeps one connection per server across agents built again, and closes it when the server changes', async () => {
    const runtime = open();
    const server = await runtime.toolServers.save({ name: 'Local MCP', url: servers.mcp.url });
    const agent = await agentWithServer(runtime, server.id);
    const session = await runtime.createSession(agent.agentId);
    const before = servers.mcp.sessionCount();
    await runtime.runs.send(session.id, 'go', () => {});
    expect(servers.mcp.sessionCount()).toBe(before + 1);
    // The agent edited: built again, on the same connection.
    await runtime.agentSpecs.save({ ...agent, instruction: 'Use the echo tool, please.' });
    await runtime.runs.send(session.id, 'go', () => {});
    expect(servers.mcp.sessionCount()).toBe(before + 1);
    // The server edited: its old connection is ended, and the next run opens one.
    await runtime.toolServers.save({ id: server.id, name: 'Local MCP', url: servers.mcp.url });
    await runtime.runs.send(session.id, 'go', () => {});
    await expect.poll(() => servers.mcp.sessionCount()).toBe(before + 1);
  });

  it('offers an agent only the tools left switched on', async () => {
    const runtime = open();
    const server = await runtime.toolServers.save({
      name: 'Local MCP',
      url: servers.mcp.url,
      disabledTools: ['echo'],
    });
    const agent = await agentWithServer(runtime, server.id);
    const session = await runtime.createSession(agent.agentId);
    const before = servers.models.requests.length;
    await runtime.runs.send(session.id, 'Say hello', () => {}).catch(() => undefined);
    const request = servers.models.requests
      .slice(before)
      .find((r) => r.path.endsWith('/chat/completions'))!;
    const offered = (request.body.tools ?? []).map(
      (tool: { function: { name: string } }) => tool.function.name,
    );
    expect(offered).not.toContain('echo');
    expect(offered).toContain('picture');
  });
});

describe('approval policies', () => {
  const calls = (events: readonly unknown[]) =>
    (events as { content?: { parts: { functionCall?: { name: string } }[] } }[]).flatMap((event) =>
      (event.content?.parts ?? []).flatMap((part) =>
        part.functionCall ? [part.functionCall.name] : [],
      ),
    );
  const responses = (events: readonly unknown[]) =>
    (events as { content?: { parts: { functionResponse?: { response: unknown } }[] } }[]).flatMap(
      (event) =>
        (event.content?.parts ?? []).flatMap((part) =>
          part.functionResponse ? [part.functionResponse.response] : [],
        ),
    );

  it('asks before an MCP tool runs by default; Always and Never are kept per tool, and reset', async () => {
    const runtime = open();
    const server = await runtime.toolServers.save({ name: 'Local MCP', url: servers.mcp.url });
    const agent = await agentWithServer(runtime, server.id, { policies: true });

    // Ask (the default for an MCP tool): the run pauses for the user's approval.
    const first = await runtime.createSession(agent.agentId);
    const asked: unknown[] = [];
    await runtime.runs.send(first.id, 'go', (event) => asked.push(event));
    expect(calls(asked)).toEqual(['echo', 'adk_request_confirmation']);

    // Always: it runs at once.
    await runtime.toolServers.setPolicy('echo', 'always');
    expect(await runtime.toolServers.policies()).toEqual({ echo: 'always' });
    const second = await runtime.createSession(agent.agentId);
    const ran: unknown[] = [];
    await runtime.runs.send(second.id, 'go', (event) => ran.push(event));
    expect(calls(ran)).toEqual(['echo']);
    expect(responses(ran)).toEqual([{ result: 'echo: hello from the model' }]);

    // Never: the model is told it may not.
    await runtime.toolServers.setPolicy('echo', 'never');
    const third = await runtime.createSession(agent.agentId);
    const refused: unknown[] = [];
    await runtime.runs.send(third.id, 'go', (event) => refused.push(event));
    expect(responses(refused)).toEqual([
      { error: 'The user does not allow the tool echo (its approval policy is "never")' },
    ]);

    await runtime.toolServers.setPolicy('echo', undefined);
    expect(await runtime.toolServers.policies()).toEqual({});
  });

  it('keeps the answer to an approval in the turn that asked, for an agent whose runs are not resumed', async () => {
    const runtime = open();
    const server = await runtime.toolServers.save({ name: 'Local MCP', url: servers.mcp.url });
    const agent = await agentWithServer(runtime, server.id, { policies: true });
    // Not resumed: the answer goes on in an invocation of its own, as an ADK server's may.
    await runtime.agentSpecs.save({ ...agent, resumable: false });
    const session = await runtime.createSession(agent.agentId);
    const asked: unknown[] = [];
    await runtime.runs.send(session.id, 'go', (event) => asked.push(event));
    const request = (
      asked as { content?: { parts: { functionCall?: { id?: string; name: string } }[] } }[]
    )
      .flatMap((event) => event.content?.parts ?? [])
      .find((part) => part.functionCall?.name === 'adk_request_confirmation')!.functionCall!;
    await runtime.runs.answer(session.id, request.id!, true, undefined, () => {});
    const opened = await runtime.openSessionSummary(session.id);
    // History: one turn, not a second one called "Result of adk_request_confirmation".
    expect(opened.activePath.map((turn) => turn.text)).toEqual(['go']);
    const invocations = new Set(opened.activeTail.map((entry) => entry.event.invocationId));
    expect(invocations.size).toBe(2);
    // The tool ran on the approval, in the answer's invocation.
    expect(responses(opened.activeTail.map((entry) => entry.event))).toContainEqual({
      result: 'echo: hello from the model',
    });
  });

  it('lists every tool a policy can be set for before its first call: the servers’, the built-in, the flows’', async () => {
    const runtime = open();
    const tested = await runtime.toolServers.test({ name: 'Local MCP', url: servers.mcp.url });
    expect(tested.ok).toBe(true);
    await runtime.toolServers.save({
      name: 'Local MCP',
      url: servers.mcp.url,
      tools: tested.ok ? tested.tools : [],
    });
    await runtime.toolServers.save({ name: 'Untested', url: 'http://127.0.0.1:9/mcp' });
    await runtime.toolServers.setPolicy('echo', 'always');
    await runtime.toolServers.setPolicy('gone_tool', 'never');
    const list = await runtime.toolServers.policyList();
    const row = (name: string) => list.tools.find((tool) => tool.name === name);
    expect(row('echo')).toMatchObject({ sources: ['Local MCP'], asks: true, policy: 'always' });
    expect(row('picture')).toMatchObject({ sources: ['Local MCP'], asks: true });
    expect(row('picture')?.policy).toBeUndefined();
    // A name several places use is one row (a policy is by name).
    expect(row('calculator')).toMatchObject({ sources: ['built-in', 'flows'], asks: false });
    expect(row('set_state')).toMatchObject({ sources: ['built-in'], asks: false });
    expect(row('lookup_invoice')).toMatchObject({ sources: ['flows'] });
    expect(row('gone_tool')).toMatchObject({ sources: [], policy: 'never' });
    expect(list.tools.filter((tool) => tool.name === 'calculator')).toHaveLength(1);
    expect(list.unlistedServers).toEqual(['Untested']);
  });
});
