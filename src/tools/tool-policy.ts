// Approval policies (Settings): for a tool, by name, *ask every time*, *always allow* or *never*.
// A tool with no policy keeps its own rule (an MCP tool's is to ask; a built-in tool's not to).
// They work through the confirmation every run already has (`adk_request_confirmation`), so a
// call waiting for an answer survives a reload and resumes as any approval does.

import { BaseTool, type ToolProcessLlmRequest } from './base-tool.ts';
import { MappedToolset, type BaseToolset } from './base-toolset.ts';
import type { ToolContext } from './tool-context.ts';

export type ToolPolicy = 'ask' | 'always' | 'never';

export const TOOL_POLICIES: readonly ToolPolicy[] = ['ask', 'always', 'never'];

/** The policy the user set for a tool, if any (read at each call: it may change mid-run). */
export type PolicyLookup = (toolName: string) => Promise<ToolPolicy | undefined>;

/** A tool under the user's policy; `defaultPolicy` applies when the user has set none. */
export class PolicyTool extends BaseTool {
  override readonly isLongRunning: boolean;

  constructor(
    private readonly inner: BaseTool,
    private readonly policyOf: PolicyLookup,
    private readonly defaultPolicy?: ToolPolicy,
  ) {
    super(inner.name, inner.description, inner.parameters);
    this.isLongRunning = inner.isLongRunning;
  }

  override declaration() {
    return this.inner.declaration();
  }

  override processLlmRequest(request: ToolProcessLlmRequest): Promise<void> {
    return this.inner.processLlmRequest(request);
  }

  override validateArgs(args: Record<string, unknown>): string[] {
    return this.inner.validateArgs(args);
  }

  override async needsConfirmation(args: Record<string, unknown>): Promise<boolean> {
    const policy = (await this.policyOf(this.name)) ?? this.defaultPolicy;
    if (policy === 'ask') return true;
    if (policy === 'always' || policy === 'never') return false;
    return this.inner.needsConfirmation(args);
  }

  override confirmationHint(args: Record<string, unknown>): string | undefined {
    return this.inner.confirmationHint(args);
  }

  override async runAsync(
    args: Record<string, unknown>,
    toolContext: ToolContext,
  ): Promise<unknown> {
    if ((await this.policyOf(this.name)) === 'never')
      return {
        error: `The user does not allow the tool ${this.name} (its approval policy is "never")`,
      };
    return this.inner.runAsync(args, toolContext);
  }
}

/** A toolset whose tools are under the user's policies. */
export class PolicyToolset extends MappedToolset {
  constructor(inner: BaseToolset, policyOf: PolicyLookup, defaultPolicy?: ToolPolicy) {
    super(inner, (tool) => new PolicyTool(tool, policyOf, defaultPolicy));
  }
}
