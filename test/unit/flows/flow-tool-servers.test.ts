// A flow's nodes naming an MCP server's tools (`Server name/tool`), against a real MCP server
// over HTTP: the library (compileFlow with toolsets listed when the nodes run, under the user's
// approval policies) and the app (the runtime's flows resolving the names against Settings →
// Tool servers, with the fixture model server as the model of an agent node).

import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  McpToolset,
  compileFlow,
  type Event,
  type Flow,
} from '../../../src/index.ts';
import type { ToolPolicy } from '../../../src/tools/tool-policy.ts';
import { AppRuntime } from '../../../workers/app.ts';
import { inProcessLocks } from '../../../workers/runs/session-locks.ts';
import { call, nodeModel, replies } from '../../support/flows.ts';
import { collect, freshDbName, rejectionOf, userMessage } from '../../support/helpers.ts';
import { mcpAndModelServers } from '../../support/mcp-server.ts';

const servers = mcpAndModelServers();

const userId = 'u';

const calls = (events: readonly Event[]) =>
  events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionCall ? [part.functionCall.name] : [],
    ),
  );
const responses = (events: readonly Event[]) =>
  events.flatMap((event) =>
    (event.content?.parts ?? []).flatMap((part) =>
      part.functionResponse ? [part.functionResponse.response] : [],
    ),
  );

/** Start → an llm node that asks for echo → a tool node with the server's echo → an answer. */
function echoFlow(requireApproval = false): Flow {
  return {
    name: 'echoes',
    nodes: [
      { id: 'start', type: 'start' },
      { id: 'ask', type: 'llm', instruction: 'Ask' },
      { id: 'act', type: 'tool', tools: ['Local MCP/echo'], requireApproval },
      { id: 'answer', type: 'llm', instruction: 'Answer' },
    ],
    edges: [
      { from: 'start', to: 'ask' },
      { from: 'ask', to: 'act' },
      { from: 'act', to: 'answer' },
    ],
  };
}

async function runEcho(policies: Record<string, ToolPolicy>, requireApproval = false) {
  const model = nodeModel({
    ask: () => call('echo', { text: 'from the flow' }),
    answer: () => 'done',
  });
  const toolset = new McpToolset({
    connectionParams: { url: servers.mcp.url },
    toolFilter: ['echo'],
  });
  const agent = compileFlow(echoFlow(requireApproval), {
    model,
    tools: { 'Local MCP/echo': toolset },
    policyOf: async (name) => policies[name],
  });
  const runner = new InMemoryRunner({ agent, resumabilityConfig: { isResumable: true } });
  const session = await runner.sessionService.createSession({ appName: runner.appName, userId });
  const before = servers.mcp.calls.length;
  const events = await collect(
    runner.runAsync({ userId, sessionId: session.id, newMessage: userMessage('go') }),
  );
  await toolset.close();
  return { events, model, served: servers.mcp.calls.slice(before) };
}

describe('flows on an MCP server’s tools (library)', () => {
  it('offers the llm node the server’s tool, and the tool node runs the call on the server', async () => {
    const { events, model, served } = await runEcho({});
    expect(model.requests[0]!.tools?.map((tool) => tool.name)).toEqual(['echo']);
    expect(served).toEqual([{ name: 'echo', args: { text: 'from the flow' } }]);
    expect(responses(events)).toEqual([{ result: 'echo: from the flow' }]);
    expect(replies(events).at(-1)).toBe('answer: done');
  });

  it('puts every tool under the user’s policies: they beat a node’s Require approval', async () => {
    // The node asks, and no policy says otherwise: the run waits for the user.
    const asked = await runEcho({}, true);
    expect(calls(asked.events)).toEqual(['echo', 'adk_request_confirmation']);
    expect(asked.served).toEqual([]);
    // Always: it runs at once.
    const allowed = await runEcho({ echo: 'always' }, true);
    expect(calls(allowed.events)).toEqual(['echo']);
    expect(allowed.served).toHaveLength(1);
    // Never: the model is told, and the server is not called.
    const refused = await runEcho({ echo: 'never' });
    expect(refused.served).toEqual([]);
    expect(JSON.stringify(responses(refused.events))).toMatch(/does not allow the tool echo/);
    // Ask, on a node that does not require approval.
    const ask = await runEcho({ echo: 'ask' });
    expect(calls(ask.events)).toEqual(['echo', 'adk_request_confirmation']);
  });
});

function open() {
  return new AppRuntime({
    dbName: freshDbName(),
    locks: inProcessLocks(),
    broadcast: () => undefined,
    modelHttp: { maxRetries: 0 },
  });
}

/** The app with the MCP server added, the fixture model as a provider, and a flow on both. */
async function appWithFlow(tools: string[] = ['Local MCP/echo']) {
  const runtime = open();
  const server = await runtime.toolServers.save({
    name: 'Local MCP',
    url: servers.mcp.url,
    tools: [
      { name: 'echo', description: 'Echoes' },
      { name: 'picture', description: 'A picture' },
    ],
  });
  await runtime.providers.save({
    kind: 'openai-compatible',
    name: 'Fixture',
    baseUrl: `${servers.models.url}/v1`,
    defaultModel: 'fixture-mcp-echo',
  });
  const flow = {
    name: 'mcp-flow',
    nodes: [
      { id: 'start', type: 'start' },
      {
        id: 'helper',
        type: 'agent',
        model: 'Fixture/fixture-mcp-echo',
        instruction: 'Use the echo tool.',
        tools,
      },
      { id: 'end', type: 'end' },
    ],
    edges: [
      { from: 'start', to: 'helper' },
      { from: 'helper', to: 'end' },
    ],
  };
  const { saved, problems } = await runtime.flows.save(JSON.stringify(flow));
  expect(problems).toEqual([]);
  return { runtime, server, flowId: saved!.id };
}

describe('flows on an MCP server’s tools (app)', () => {
  it('runs an agent node on a server’s tool, asking first as for any MCP tool', async () => {
    const { runtime, flowId } = await appWithFlow();
    const first = await runtime.createSession(flowId);
    const asked: Event[] = [];
    await runtime.runs.send(first.id, 'go', (event) => asked.push(event as Event));
    expect(calls(asked)).toEqual(['echo', 'adk_request_confirmation']);

    await runtime.toolServers.setPolicy('echo', 'always');
    const second = await runtime.createSession(flowId);
    const ran: Event[] = [];
    const before = servers.mcp.calls.length;
    await runtime.runs.send(second.id, 'go', (event) => ran.push(event as Event));
    expect(servers.mcp.calls.slice(before)).toEqual([
      { name: 'echo', args: { text: 'hello from the model' } },
    ]);
    expect(replies(ran).at(-1)).toMatch(/The MCP server answered\./);
  });

  it('lists the servers’ tools as the nodes’ choices, and keeps a server its flows use', async () => {
    const { runtime, server } = await appWithFlow();
    expect(await runtime.toolServers.flowToolChoices()).toEqual([
      'Local MCP/echo',
      'Local MCP/picture',
    ]);
    expect((await runtime.toolServers.list())[0]!.tools.map((tool) => tool.name)).toEqual([
      'echo',
      'picture',
    ]);
    expect((await rejectionOf(runtime.toolServers.remove(server.id))).message).toMatch(
      /used by the flow mcp-flow/,
    );
    expect(
      (
        await rejectionOf(
          runtime.toolServers.save({ id: server.id, name: 'Renamed', url: servers.mcp.url }),
        )
      ).message,
    ).toMatch(/The flows mcp-flow name tools of "Local MCP"/);
    expect((await runtime.toolServers.list())[0]!.name).toBe('Local MCP');
  });

  it('refuses a flow naming a server that does not exist, saying which ones do', async () => {
    const { runtime } = await appWithFlow();
    const flow = {
      name: 'other',
      nodes: [
        { id: 'start', type: 'start' },
        {
          id: 'helper',
          type: 'agent',
          instruction: 'Help.',
          tools: ['Elsewhere/echo', 'Local MCP/'],
        },
      ],
      edges: [{ from: 'start', to: 'helper' }],
    };
    const { saved, problems } = await runtime.flows.save(JSON.stringify(flow));
    expect(saved).toBeUndefined();
    expect(problems.map((problem) => problem.message)).toEqual([
      'unknown tool server "Elsewhere" in "Elsewhere/echo" (Settings → Tool servers: Local MCP)',
      '"Local MCP/" names no tool after "Local MCP/"',
    ]);
    expect((await runtime.flows.list()).filter((info) => info.name === 'other')).toEqual([]);
  });

  it('ends a run on a tool the server does not have with an error that names both', async () => {
    const { runtime, flowId } = await appWithFlow(['Local MCP/nope']);
    const session = await runtime.createSession(flowId);
    const seen: Event[] = [];
    const error = await rejectionOf(
      runtime.runs.send(session.id, 'go', (e) => seen.push(e as Event)),
    );
    expect(error.message).toMatch(/The tool server Local MCP has no tool "nope"/);
  });
});
