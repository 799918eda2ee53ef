// A set of tools an agent gets at run time rather than when it is made (ADK's BaseToolset): the
// tools of an MCP server, say, listed when a run needs them and again when the server says they
// changed. An LlmAgent asks for them before each model call.

import type { BaseTool } from './base-tool.ts';

export abstract class BaseToolset {
  /** The tools as they are now (cheap when nothing changed: a toolset keeps what it listed). */
  abstract getTools(): Promise<BaseTool[]>;

  /** Lets go of what the toolset holds (a connection): the next getTools opens it again. */
  async close(): Promise<void> {}
}

export function isToolset(value: unknown): value is BaseToolset {
  return value instanceof BaseToolset;
}
