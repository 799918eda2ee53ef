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

/**
 * Another toolset's tools, each passed through `map`: wrapped (under a policy, say) or left out
 * (`undefined`). The inner toolset's connection is the one closed.
 */
export class MappedToolset extends BaseToolset {
  constructor(
    private readonly inner: BaseToolset,
    private readonly map: (tool: BaseTool) => BaseTool | undefined,
  ) {
    super();
  }

  override async getTools(): Promise<BaseTool[]> {
    return (await this.inner.getTools()).flatMap((tool) => this.map(tool) ?? []);
  }

  override close(): Promise<void> {
    return this.inner.close();
  }
}
