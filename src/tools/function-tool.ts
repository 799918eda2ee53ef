// A tool made of a function.

import type { JsonSchema } from '../models/llm.ts';
import { BaseTool } from './base-tool.ts';
import type { ToolContext } from './tool-context.ts';

export interface FunctionToolOptions<
  Args extends Record<string, unknown> = Record<string, unknown>,
> {
  name: string;
  description: string;
  /** JSON Schema of the arguments; calls that do not fit get an error response, not a run. */
  parameters?: JsonSchema;
  execute: (args: Args, toolContext: ToolContext) => unknown;
  /** Ask a human to approve each call (or the calls for which the function says so). */
  requireConfirmation?: boolean | ((args: Args) => boolean | Promise<boolean>);
}

export class FunctionTool<
  Args extends Record<string, unknown> = Record<string, unknown>,
> extends BaseTool {
  readonly requireConfirmation: FunctionToolOptions<Args>['requireConfirmation'];
  private readonly execute: FunctionToolOptions<Args>['execute'];

  constructor(options: FunctionToolOptions<Args>) {
    super(options.name, options.description, options.parameters);
    this.execute = options.execute;
    this.requireConfirmation = options.requireConfirmation ?? false;
  }

  override async needsConfirmation(args: Record<string, unknown>): Promise<boolean> {
    const rule = this.requireConfirmation;
    return typeof rule === 'function' ? rule(args as Args) : rule === true;
  }

  override async runAsync(
    args: Record<string, unknown>,
    toolContext: ToolContext,
  ): Promise<unknown> {
    return this.execute(args as Args, toolContext);
  }
}

/**
 * A tool whose work goes on after the call returns (a job, a human). Its call pauses the
 * invocation; a later user message holding a function response for the call resumes it.
 */
export class LongRunningFunctionTool<
  Args extends Record<string, unknown> = Record<string, unknown>,
> extends FunctionTool<Args> {
  override readonly isLongRunning = true;
}
