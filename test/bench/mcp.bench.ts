// Issue 16's budget for MCP tools: a tool call through McpToolset (the agent's tool: the list
// checked, the call, its result turned into a function response) against the SDK's own client
// calling the same tool directly, in the same process, against a real MCP server (the SDK's, on
// 127.0.0.1). Both keep one session open; calls alternate, so the machine's noise falls on both.
//
// Alone: npx vitest run --project bench test/bench/mcp.bench.ts (about 20 seconds).

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { describe, expect, it } from 'vitest';
import { McpToolset, type ToolContext } from '../../src/index.ts';
import { startMcpServer } from '../support/mcp-server.ts';
import { pairedRatio, pairedRounds, summarize } from './measure.ts';
import { publishNodeResults } from './report.ts';
import { figure } from './results-file.ts';

const GROUP = 'MCP tool call';
const CALLS = 200;
const ROUNDS = 7;
const MAX_OVERHEAD = 1.2;
const DIRECT = 'SDK Client.callTool, directly';
const TOOLSET = 'McpToolset tool (list checked, call, response made)';

/** A ToolContext as the tool sees one in a run: no signal, no artifacts asked for by `echo`. */
const context = {
  invocationContext: { runConfig: {} },
  saveArtifact: async () => 0,
} as unknown as ToolContext;

describe('MCP', () => {
  it(
    'a tool call through McpToolset against the SDK client directly',
    { timeout: 300_000 },
    async () => {
      const server = await startMcpServer();
      const direct = new Client({ name: 'bench', version: '1.0.0' });
      await direct.connect(new StreamableHTTPClientTransport(new URL(server.url)));
      const toolset = new McpToolset({ connectionParams: { url: server.url } });
      const echo = (await toolset.getTools()).find((tool) => tool.name === 'echo')!;
      const args = { text: 'hello' };
      const timeCalls = async (call: () => Promise<unknown>) => {
        const started = performance.now();
        for (let i = 0; i < CALLS; i++) await call();
        return (performance.now() - started) / CALLS;
      };
      const viaToolset = () => echo.runAsync(args, context);
      const viaClient = () => direct.callTool({ name: 'echo', arguments: args });
      try {
        expect(await viaToolset()).toEqual({ result: 'echo: hello' });
        await timeCalls(viaClient); // warm-up, both
        await timeCalls(viaToolset);
        const [toolsetMs, directMs] = await pairedRounds(
          ROUNDS,
          () => timeCalls(viaToolset),
          () => timeCalls(viaClient),
        );
        const ratio = pairedRatio(toolsetMs, directMs);
        const params = { calls: CALLS, measured: 'ms per call, loopback' };
        const results = [
          figure(GROUP, DIRECT, params, 'ms', summarize(directMs)),
          figure(GROUP, TOOLSET, params, 'ms', summarize(toolsetMs), {
            ratio: { vs: DIRECT, ...ratio },
            target: {
              text: `overhead ≤ ${MAX_OVERHEAD}× the SDK client`,
              met: ratio.median <= MAX_OVERHEAD,
            },
          }),
        ];
        await publishNodeResults(GROUP, results);
      } finally {
        await toolset.close();
        await direct.close();
        await server.close();
      }
    },
  );
});
