// A tool an LlmAgent can call.

import type { FunctionDeclaration, JsonSchema, LlmRequest } from '../models/llm.ts';
import type { ToolContext } from './tool-context.ts';
import { validateAgainstSchema } from './validate-args.ts';

/** What a tool may change of a model request before it is sent (ADK's ToolProcessLlmRequest). */
export interface ToolProcessLlmRequest {
  /** The invocation the request is made in (no call is being answered: `functionCallId` is ''). */
  toolContext: ToolContext;
  llmRequest: LlmRequest;
}

export abstract class BaseTool {
  /** A long-running tool's call pauses the invocation until its final response arrives. */
  readonly isLongRunning: boolean = false;

  constructor(
    readonly name: string,
    readonly description: string,
    /** JSON Schema of the arguments object; none means any arguments are accepted. */
    readonly parameters?: JsonSchema,
  ) {}

  /** What the model is told about this tool. */
  declaration(): FunctionDeclaration {
    return {
      name: this.name,
      description: this.description,
      ...(this.parameters ? { parameters: this.parameters } : {}),
    };
  }

  /**
   * Adds this tool to a model request of its agent (ADK's processLlmRequest), before each call:
   * its declaration, so the model can call it. A tool may add to the system instruction too
   * (LOAD_MEMORY), or only that, never being called (PRELOAD_MEMORY).
   */
  async processLlmRequest({ llmRequest }: ToolProcessLlmRequest): Promise<void> {
    (llmRequest.tools ??= []).push(this.declaration());
  }

  /** Problems with the arguments of a call (empty when they fit the schema). */
  validateArgs(args: Record<string, unknown>): string[] {
    return this.parameters ? validateAgainstSchema(args, this.parameters) : [];
  }

  /** Whether a human must approve this call before the tool runs (see FunctionTool). */
  async needsConfirmation(_args: Record<string, unknown>): Promise<boolean> {
    return false;
  }

  /** What the approval card asks the human, when this tool says (else a default question). */
  confirmationHint(_args: Record<string, unknown>): string | undefined {
    return undefined;
  }

  /** Runs the tool. What it returns becomes the function response (objects as they are). */
  abstract runAsync(args: Record<string, unknown>, toolContext: ToolContext): Promise<unknown>;
}
