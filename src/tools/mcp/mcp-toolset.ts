// The tools of an MCP server (ADK's McpToolset), over the Streamable HTTP transport, on the
// official TypeScript SDK (@modelcontextprotocol/sdk), loaded the first time a toolset connects.
//
// - One session per toolset, reused by every call; closed by close(). A session the server has
//   dropped (it answers 404 for the session's id) is opened again once, and the call retried.
// - The tool list is kept until the server says it changed (notifications/tools/list_changed);
//   the agent asks again before each model call. A call to a tool that is gone is answered with
//   an error the model can act on.
// - A server that cannot be reached is not the tool's failure: McpServerUnreachableError leaves
//   the run interrupted, to resume once it is back. A tool that takes too long, or answers with
//   `isError`, is answered with an error the model can act on.

import type { Part } from '../../core/content.ts';
import { messageOf } from '../../core/errors.ts';
import type { JsonSchema } from '../../models/llm.ts';
import { BaseTool } from '../base-tool.ts';
import { BaseToolset } from '../base-toolset.ts';
import type { ToolContext } from '../tool-context.ts';
import { mcpResponse, type McpCallResult } from './mcp-results.ts';

/** ADK's connection parameters for a Streamable HTTP MCP server. */
export interface StreamableHTTPConnectionParams {
  url: string;
  /** Sent with every request (e.g. `Authorization: Bearer …`): secrets stay in the worker. */
  headers?: Record<string, string>;
}

export interface McpToolsetOptions {
  connectionParams: StreamableHTTPConnectionParams;
  /** The tools to offer: their names, or a test of each; all of them when absent. */
  toolFilter?: readonly string[] | ((tool: McpToolInfo) => boolean);
  /** How long a call may take before it is answered with an error (default 60 s). */
  timeoutMs?: number;
}

/** A tool as the server lists it. */
export interface McpToolInfo {
  name: string;
  description?: string;
  inputSchema?: JsonSchema;
}

/** The MCP server could not be reached (down, offline, or not allowing this origin). */
export class McpServerUnreachableError extends Error {
  override name = 'McpServerUnreachableError' as const;
  constructor(
    readonly url: string,
    options?: { cause?: unknown },
  ) {
    super(
      `Could not reach the MCP server at ${url} (${messageOf(options?.cause)}). It is down, the ` +
        'network is off, or it does not allow this app: a server used from a browser must send ' +
        'Access-Control-Allow-Origin for this page and expose the Mcp-Session-Id header ' +
        '(Access-Control-Expose-Headers). The run stopped; resume it once the server answers.',
      options,
    );
  }
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** What the toolset needs of the SDK's Client (so that it loads only when used). */
interface McpClient {
  connect(transport: unknown): Promise<void>;
  listTools(params?: { cursor?: string }): Promise<{ tools: McpToolInfo[]; nextCursor?: string }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<unknown>;
  close(): Promise<void>;
  /** The Streamable HTTP transport, which can end the session on the server. */
  readonly transport?: { terminateSession?(): Promise<void> } | undefined;
}

export class McpToolset extends BaseToolset {
  readonly url: string;
  private readonly options: McpToolsetOptions;
  private client: Promise<McpClient> | undefined;
  private tools: Promise<McpTool[]> | undefined;

  constructor(options: McpToolsetOptions) {
    super();
    this.options = options;
    this.url = options.connectionParams.url;
  }

  override async getTools(): Promise<McpTool[]> {
    this.tools ??= this.listTools().catch((error: unknown) => {
      this.tools = undefined;
      throw error;
    });
    return this.tools;
  }

  override async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.tools = undefined;
    const opened = await client?.catch(() => undefined);
    // Ends the session on the server (a DELETE, as the protocol asks of a client that is done;
    // a server that keeps no sessions answers 405, which is fine), then the connection.
    await opened?.transport?.terminateSession?.().catch(() => undefined);
    await opened?.close().catch(() => undefined);
  }

  /** Calls a tool of the server (a session dropped by the server is opened again, once). */
  async call(
    name: string,
    args: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<McpCallResult> {
    const timeout = this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const attempt = async () =>
      (await this.session()).callTool({ name, arguments: args }, undefined, {
        timeout,
        ...(signal ? { signal } : {}),
      }) as Promise<McpCallResult>;
    try {
      return await attempt();
    } catch (error) {
      if (!isDroppedSession(error)) throw this.classify(error);
      await this.close();
      return attempt().catch((again: unknown) => {
        throw this.classify(again);
      });
    }
  }

  private async listTools(): Promise<McpTool[]> {
    const listed: McpToolInfo[] = [];
    try {
      const client = await this.session();
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor ? { cursor } : undefined);
        listed.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor);
    } catch (error) {
      if (isDroppedSession(error)) {
        await this.close();
        return this.listTools();
      }
      throw this.classify(error);
    }
    const filter = this.options.toolFilter;
    const chosen = !filter
      ? listed
      : typeof filter === 'function'
        ? listed.filter(filter)
        : listed.filter((tool) => filter.includes(tool.name));
    return chosen.map((info) => new McpTool(info, this));
  }

  private session(): Promise<McpClient> {
    this.client ??= this.connect().catch((error: unknown) => {
      this.client = undefined;
      throw this.classify(error);
    });
    return this.client;
  }

  private async connect(): Promise<McpClient> {
    const [{ Client }, { StreamableHTTPClientTransport }, { ToolListChangedNotificationSchema }] =
      await Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
        import('@modelcontextprotocol/sdk/types.js'),
      ]);
    const { url, headers } = this.options.connectionParams;
    const transport = new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { ...headers } },
    });
    const client = new Client({ name: 'trellis', version: '0.1.0' });
    // The server's tools changed: list them again before the next model call.
    client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      this.tools = undefined;
    });
    await client.connect(transport);
    return client as unknown as McpClient;
  }

  /** A failure to reach the server is the run's interruption; anything else stays as it is. */
  private classify(error: unknown): Error {
    if (error instanceof McpServerUnreachableError) return error;
    if (isUnreachable(error)) return new McpServerUnreachableError(this.url, { cause: error });
    return error instanceof Error ? error : new Error(messageOf(error));
  }
}

/** One tool of an MCP server, as an agent's tool. */
export class McpTool extends BaseTool {
  constructor(
    info: McpToolInfo,
    private readonly toolset: McpToolset,
  ) {
    super(info.name, info.description ?? '', info.inputSchema ?? { type: 'object' });
  }

  override async runAsync(
    args: Record<string, unknown>,
    toolContext: ToolContext,
  ): Promise<unknown> {
    // Listed before the call: a tool the server no longer has is an answer, not a failure.
    const now = await this.toolset.getTools();
    if (!now.some((tool) => tool.name === this.name))
      return { error: `The MCP server at ${this.toolset.url} no longer has the tool ${this.name}` };
    let result: McpCallResult;
    try {
      result = await this.toolset.call(
        this.name,
        args,
        toolContext.invocationContext.runConfig.signal,
      );
    } catch (error) {
      if (error instanceof McpServerUnreachableError) throw error;
      if (isTimeout(error))
        return { error: `The tool ${this.name} did not answer in time, and was given up` };
      if ((error as Error).name === 'AbortError') throw error;
      return { error: `The tool ${this.name} failed: ${messageOf(error)}` };
    }
    return mcpResponse(result, (filename: string, part: Part) =>
      toolContext.saveArtifact(filename, part),
    );
  }
}

/** The SDK's errors by what they are, without its classes (it loads only when used). */
function isDroppedSession(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 404;
}

function isTimeout(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === -32001;
}

/** fetch's own failure (offline, refused, DNS, or CORS in a browser): a TypeError. */
function isUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Object && depth < 5; depth++) {
    if (e instanceof TypeError && /fetch|network|ECONNREFUSED|Failed/i.test(e.message)) return true;
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}
