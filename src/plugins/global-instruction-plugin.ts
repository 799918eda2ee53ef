// ADK's GlobalInstructionPlugin: one instruction put in front of every agent's own, for every
// model call of the runner's runs (a house style, a safety rule), as ADK 2.0 does.

import type { CallbackContext } from '../agents/callback-context.ts';
import { renderInstruction, type Instruction } from '../agents/instructions.ts';
import type { LlmRequest } from '../models/llm.ts';
import { BasePlugin } from './base-plugin.ts';

export class GlobalInstructionPlugin extends BasePlugin {
  /**
   * `globalInstruction`: a text (its `{key}` placeholders filled from the state, as an agent's
   * instruction's are) or a function of the invocation context.
   */
  constructor(
    readonly globalInstruction: Instruction,
    name = 'global_instruction',
  ) {
    super(name);
  }

  override async beforeModelCallback({
    callbackContext,
    llmRequest,
  }: {
    callbackContext: CallbackContext;
    llmRequest: LlmRequest;
  }): Promise<undefined> {
    if (!this.globalInstruction) return undefined;
    const global = await renderInstruction(
      this.globalInstruction,
      callbackContext.invocationContext,
    );
    if (!global) return undefined;
    const own = llmRequest.systemInstruction;
    // ADK's joining: the global one first, a blank line between.
    llmRequest.systemInstruction = own ? `${global}\n\n${own}` : global;
    return undefined;
  }
}
