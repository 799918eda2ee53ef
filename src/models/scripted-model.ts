// A deterministic model for tests and demos: it answers from a script, and keeps every request.

import type { FunctionCall } from '../core/content.ts';
import { ModelError } from '../core/errors.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from './llm.ts';

/**
 * One answer: a response, a plain text, or a stream of responses (partial chunks, then the final
 * one). A thrown error in a script function is the model failing.
 */
export type ScriptedAnswer = LlmResponse | string | readonly LlmResponse[];

export type Script =
  | readonly ScriptedAnswer[]
  | ((request: LlmRequest, index: number) => ScriptedAnswer | Promise<ScriptedAnswer>);

export interface ScriptedModelOptions {
  model?: string;
  /** Wait this long before each response (to make a run take visible time). */
  delayMs?: number;
}

export class ScriptedModel extends BaseLlm {
  /**
   * Every request received, in order, each with the contents it was sent with (later requests
   * never change them; they are lent, not copied: see agents/lent-contents.ts).
   */
  readonly requests: LlmRequest[] = [];
  private readonly delayMs: number;

  constructor(
    private readonly script: Script,
    options: ScriptedModelOptions = {},
  ) {
    super(options.model ?? 'scripted');
    this.delayMs = options.delayMs ?? 0;
  }

  override async *generateContentAsync(
    request: LlmRequest,
    stream = false,
    options: GenerateOptions = {},
  ): AsyncGenerator<LlmResponse, void> {
    const index = this.requests.length;
    this.requests.push(request);
    const answer = await this.answer(request, index);
    const responses =
      typeof answer === 'string' ? [textResponse(answer)] : isList(answer) ? answer : [answer];
    for (const response of responses) {
      if (!stream && response.partial) continue;
      if (this.delayMs > 0) await sleep(this.delayMs, options.signal);
      options.signal?.throwIfAborted();
      yield response;
    }
  }

  private async answer(request: LlmRequest, index: number): Promise<ScriptedAnswer> {
    if (typeof this.script === 'function') return this.script(request, index);
    const answer = this.script[index];
    if (answer === undefined) {
      throw new ModelError(
        `ScriptedModel has no answer for request #${index + 1} (the script has ${this.script.length})`,
      );
    }
    return answer;
  }
}

function isList(answer: ScriptedAnswer): answer is readonly LlmResponse[] {
  return Array.isArray(answer);
}

export function textResponse(text: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] } };
}

/** A model response that calls one or more functions. */
export function functionCallResponse(
  ...calls: (FunctionCall | [name: string, args?: Record<string, unknown>])[]
): LlmResponse {
  return {
    content: {
      role: 'model',
      parts: calls.map((call) =>
        Array.isArray(call)
          ? { functionCall: { name: call[0], args: call[1] ?? {} } }
          : { functionCall: call },
      ),
    },
  };
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}
