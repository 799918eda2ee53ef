// McpToolset against a real MCP server (the official SDK's, test/support/mcp-server.ts) on
// 127.0.0.1, in real runs: its tools offered to the model with their schemas, each kind of result
// as the model reads it (text, an image saved as an artifact, structured content, an error), a
// bearer token sent, a tool that takes too long, a session the server dropped, the tool list
// changing under the agent, and a server that cannot be reached leaving the run resumable.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InMemoryRunner,
  LlmAgent,
  McpToolset,
  ScriptedModel,
  createUserContent,
  functionCallResponse,
  textResponse,
  type Event,
  type LlmRequest,
} from '../../../src/index.ts';
import {
  MCP_TOKEN,
  PIXEL_PNG,
  startMcpServer,
  type McpTestServer,
} from '../../support/mcp-server.ts';
import { collect, rejectionOf } from '../../support/helpers.ts';
import { freePort } from '../../adk/adk-server.ts';

let server: McpTestServer;
beforeAll(async () => {
  server = await startMcpServer();
});
afterAll(() => server.close());

const toolset = (options: Partial<ConstructorParameters<typeof McpToolset>[0]> = {}) =>
  new McpToolset({ connectionParams: { url: server.url }, ...options });

/** A run in which the model calls `name` with `args`, then answers "ok" having read the result. */
async function callThrough(tools: McpToolset, name: string, args: Record<string, unknown> = {}) {
  const model = new ScriptedModel((request: LlmRequest) =>
    request.contents.at(-1)?.parts.some((part) => 'functionResponse' in part)
      ? textResponse('ok')
      : functionCallResponse([name, args]),
  );
  const runner = new InMemoryRunner({
    agent: new LlmAgent({ name: 'mcp', model, tools: [tools] }),
  });
  const session = await runner.sessionService.createSession({
    appName: runner.appName,
    userId: 'u',
  });
  const events = await collect(
    runner.runAsync({ userId: 'u', sessionId: session.id, newMessage: createUserContent('go') }),
  );
  return { events, model, runner, session, response: responseOf(events) };
}

function responseOf(events: readonly Event[]): Record<string, unknown> | undefined {
  for (const event of events)
    for (const part of event.content?.parts ?? [])
      if (part.functionResponse) return part.functionResponse.response;
  return undefined;
}

describe('McpToolset', () => {
  it('lists the server’s tools as function declarations, with a filter', async () => {
    const all = toolset();
    const names = (await all.getTools()).map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['echo', 'picture', 'structured', 'broken', 'slow', 'secret']),
    );
    const echo = (await all.getTools()).find((tool) => tool.name === 'echo')!;
    expect(echo.declaration()).toMatchObject({
      name: 'echo',
      description: 'Says the text back.',
      parameters: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
    });
    const some = toolset({ toolFilter: ['echo', 'broken'] });
    expect((await some.getTools()).map((tool) => tool.name)).toEqual(['echo', 'broken']);
    await all.close();
    await some.close();
  });

  it('answers with the text, and the model reads it; the session is reused', async () => {
    const tools = toolset();
    const { response, model } = await callThrough(tools, 'echo', { text: 'hi' });
    expect(response).toEqual({ result: 'echo: hi' });
    const last = model.requests.at(-1)!.contents.at(-1)!.parts[0]!;
    expect(last.functionResponse?.response).toEqual({ result: 'echo: hi' });
    const again = await callThrough(tools, 'echo', { text: 'again' });
    expect(again.response).toEqual({ result: 'echo: again' });
    const open = server.sessionCount();
    // Closed, it ends its session on the server; used again, it opens a new one.
    await tools.close();
    expect(server.sessionCount()).toBe(open - 1);
    expect((await callThrough(tools, 'echo', { text: 'later' })).response).toEqual({
      result: 'echo: later',
    });
    expect(server.sessionCount()).toBe(open);
    await tools.close();
  });

  it('saves an image as an artifact of the session and tells the model its name', async () => {
    const tools = toolset();
    const { response, runner, session } = await callThrough(tools, 'picture');
    expect(response).toEqual({
      result: 'Here is a red pixel.',
      artifacts: [{ filename: 'mcp-2.png', version: 0, mimeType: 'image/png' }],
    });
    const saved = await runner.artifactService!.loadArtifact({
      appName: runner.appName,
      userId: 'u',
      sessionId: session.id,
      filename: 'mcp-2.png',
    });
    expect(saved).toEqual({ inlineData: { mimeType: 'image/png', data: PIXEL_PNG } });
    await tools.close();
  });

  it('keeps structured content as JSON, and passes an isError result as an error', async () => {
    const tools = toolset();
    expect((await callThrough(tools, 'structured', { city: 'Oslo' })).response).toEqual({
      result: '{"city":"Oslo","temperature":21}',
      structured: { city: 'Oslo', temperature: 21 },
    });
    expect((await callThrough(tools, 'broken')).response).toEqual({
      error: 'The printer is on fire',
    });
    await tools.close();
  });

  it('sends the bearer token in its headers, and the tool sees it', async () => {
    const without = toolset();
    expect((await callThrough(without, 'secret')).response).toEqual({
      error: 'missing or wrong token',
    });
    const withToken = toolset({
      connectionParams: { url: server.url, headers: { Authorization: `Bearer ${MCP_TOKEN}` } },
    });
    const { response, events } = await callThrough(withToken, 'secret');
    expect(response).toEqual({ result: 'the vault is open' });
    expect(JSON.stringify(events)).not.toContain(MCP_TOKEN);
    await without.close();
    await withToken.close();
  });

  it('answers a tool that takes too long with an error the model can act on', async () => {
    const tools = toolset({ timeoutMs: 200 });
    const { response } = await callThrough(tools, 'slow', { ms: 3000 });
    expect(response).toEqual({ error: 'The tool slow did not answer in time, and was given up' });
    await tools.close();
  });

  it('opens a session again when the server dropped it, and the call goes through', async () => {
    const tools = toolset();
    await callThrough(tools, 'echo', { text: 'one' });
    server.dropSessions();
    expect((await callThrough(tools, 'echo', { text: 'two' })).response).toEqual({
      result: 'echo: two',
    });
    await tools.close();
  });

  it('lists the tools again when the server says they changed', async () => {
    const tools = toolset();
    expect((await tools.getTools()).map((t) => t.name)).not.toContain('extra');
    await callThrough(tools, 'grow');
    await expect.poll(async () => (await tools.getTools()).map((t) => t.name)).toContain('extra');
    await tools.close();
  });

  it('leaves the run interrupted, naming the server, and it resumes once the server is back', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}/mcp`;
    const model = new ScriptedModel((request: LlmRequest) =>
      request.contents.at(-1)?.parts.some((part) => 'functionResponse' in part)
        ? textResponse('ok')
        : functionCallResponse(['echo', { text: 'x' }]),
    );
    // The tool is known (its declaration was listed) before the server goes away.
    const up = await startMcpServer({ port });
    const tools = new McpToolset({ connectionParams: { url } });
    await tools.getTools();
    await up.close();
    await tools.close();
    const runner = new InMemoryRunner({
      agent: new LlmAgent({ name: 'mcp', model, tools: [tools] }),
      resumabilityConfig: { isResumable: true },
    });
    const { id: sessionId } = await runner.sessionService.createSession({
      appName: runner.appName,
      userId: 'u',
    });
    const error = await rejectionOf(
      collect(runner.runAsync({ userId: 'u', sessionId, newMessage: createUserContent('go') })),
    );
    expect(error.name).toBe('McpServerUnreachableError');
    expect(error.message).toContain(`Could not reach the MCP server at ${url}`);
    expect(error.message).toMatch(/Access-Control-Allow-Origin .* Mcp-Session-Id/);
    const [interrupted] = await runner.listInterruptedInvocations({ userId: 'u' });
    expect(interrupted).toMatchObject({
      status: 'interrupted',
      error: { name: 'McpServerUnreachableError' },
    });

    const back = await startMcpServer({ port });
    try {
      const resumed = await collect(
        runner.runAsync({ userId: 'u', sessionId, invocationId: interrupted!.invocationId }),
      );
      expect(responseOf(resumed)).toEqual({ result: 'echo: x' });
      expect(await runner.listInterruptedInvocations({ userId: 'u' })).toEqual([]);
    } finally {
      await tools.close();
      await back.close();
    }
  });
});
