// A real MCP server for the tests (the official SDK's McpServer over its Streamable HTTP server
// transport), on 127.0.0.1 with CORS as a server used from a browser must have (the page's origin
// allowed, Mcp-Session-Id exposed). Its tools: `echo` (text), `picture` (an image), `structured`
// (structured content), `broken` (an isError result), `slow` (answers after `ms`), `secret` (needs
// the bearer token), and `grow`, which adds a tool (`extra`) and so changes the list.

import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { afterAll, beforeAll } from 'vitest';
import { readBody, startModelServer, type ModelServer } from './model-server.ts';

export const MCP_TOKEN = 'mcp-secret-token-7c1e9b2a44';
/** One red pixel, as a PNG. */
export const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

export interface McpTestServer {
  /** e.g. `http://127.0.0.1:40123/mcp` */
  url: string;
  /** Every tool call the server ran, in order. */
  calls: { name: string; args: unknown }[];
  /** Forgets every session (as a restarted server does): their next request gets a 404. */
  dropSessions(): void;
  /** The sessions open now (a client that closed cleanly ended its own). */
  sessionCount(): number;
  close(): Promise<void>;
}

/** A tool a test adds, with the description and the text result it chooses (hostile ones). */
export interface ExtraTool {
  name: string;
  description: string;
  result?: string;
}

function makeServer(calls: McpTestServer['calls'], extraTools: readonly ExtraTool[]): McpServer {
  const server = new McpServer({ name: 'trellis-test', version: '1.0.0' });
  const called = (name: string, args: unknown) => calls.push({ name, args });
  for (const tool of extraTools)
    server.registerTool(tool.name, { description: tool.description }, async () => {
      called(tool.name, {});
      return { content: [{ type: 'text', text: tool.result ?? tool.name }] };
    });
  server.registerTool(
    'echo',
    { description: 'Says the text back.', inputSchema: { text: z.string() } },
    async ({ text }) => {
      called('echo', { text });
      return { content: [{ type: 'text', text: `echo: ${text}` }] };
    },
  );
  server.registerTool('picture', { description: 'Draws a picture.' }, async () => {
    called('picture', {});
    return {
      content: [
        { type: 'text', text: 'Here is a red pixel.' },
        { type: 'image', data: PIXEL_PNG, mimeType: 'image/png' },
      ],
    };
  });
  server.registerTool(
    'structured',
    { description: 'Answers with data.', inputSchema: { city: z.string() } },
    async ({ city }) => {
      called('structured', { city });
      const data = { city, temperature: 21 };
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
    },
  );
  server.registerTool('broken', { description: 'Always fails.' }, async () => {
    called('broken', {});
    return { content: [{ type: 'text', text: 'The printer is on fire' }], isError: true };
  });
  server.registerTool(
    'slow',
    { description: 'Answers after ms milliseconds.', inputSchema: { ms: z.number() } },
    async ({ ms }, extra) => {
      called('slow', { ms });
      await new Promise((resolve, reject) => {
        const timer = setTimeout(resolve, ms);
        extra.signal.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(new Error('cancelled'));
        });
      });
      return { content: [{ type: 'text', text: `done after ${ms} ms` }] };
    },
  );
  server.registerTool('secret', { description: 'Needs the bearer token.' }, async (extra) => {
    called('secret', {});
    const auth = extra.requestInfo?.headers['authorization'];
    return auth === `Bearer ${MCP_TOKEN}`
      ? { content: [{ type: 'text', text: 'the vault is open' }] }
      : { content: [{ type: 'text', text: 'missing or wrong token' }], isError: true };
  });
  server.registerTool('grow', { description: 'Adds a tool.' }, async () => {
    called('grow', {});
    server.registerTool('extra', { description: 'A tool added later.' }, async () => {
      called('extra', {});
      return { content: [{ type: 'text', text: 'extra!' }] };
    });
    return { content: [{ type: 'text', text: 'added extra' }] };
  });
  return server;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers':
    'content-type, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
  'access-control-expose-headers': 'mcp-session-id',
  'access-control-max-age': '600',
};

export async function startMcpServer({
  port = 0,
  extraTools = [],
}: { port?: number; extraTools?: readonly ExtraTool[] } = {}): Promise<McpTestServer> {
  const calls: McpTestServer['calls'] = [];
  const sessions = new Map<
    string,
    { transport: StreamableHTTPServerTransport; server: McpServer }
  >();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    for (const [name, value] of Object.entries(CORS)) res.setHeader(name, value);
    if (req.method === 'OPTIONS') {
      res.writeHead(204).end();
      return;
    }
    const body = req.method === 'POST' ? JSON.parse((await readBody(req)) || 'null') : undefined;
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known) return known.transport.handleRequest(req, res, body);
    if (typeof id === 'string') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          error: { code: -32001, message: 'Session not found' },
          id: null,
        }),
      );
      return;
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      res.writeHead(400).end('initialize first');
      return;
    }
    const server = makeServer(calls, extraTools);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => {
        sessions.set(sessionId, { transport, server });
      },
      // A client that is done ends its session (DELETE).
      onsessionclosed: (sessionId) => {
        sessions.delete(sessionId);
      },
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, body);
  }

  const http = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(String(error));
    });
  });
  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(port, '127.0.0.1', resolve);
  });
  const { port: bound } = http.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    calls,
    dropSessions: () => sessions.clear(),
    sessionCount: () => sessions.size,
    close: () =>
      new Promise<void>((resolve) => {
        for (const { server } of sessions.values()) void server.close();
        sessions.clear();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

/**
 * Starts the MCP test server and the fixture model server before a file's tests and closes them
 * after; the getters read them once started.
 */
export function mcpAndModelServers(): {
  readonly mcp: McpTestServer;
  readonly models: ModelServer;
} {
  let mcp: McpTestServer | undefined;
  let models: ModelServer | undefined;
  beforeAll(async () => {
    mcp = await startMcpServer();
    models = await startModelServer();
  });
  afterAll(async () => {
    await mcp?.close();
    await models?.close();
  });
  return {
    get mcp() {
      if (!mcp) throw new Error('The MCP test server is not started yet');
      return mcp;
    },
    get models() {
      if (!models) throw new Error('The model server is not started yet');
      return models;
    },
  };
}
