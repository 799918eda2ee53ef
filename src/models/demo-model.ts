// The offline demo model: deterministic rules, no network, honestly not an LLM. It lets the app
// work out of the box and shows the mechanics (tool calls, state, artifacts, streaming).

import { functionResponsesOf, textOf, type Content } from '../core/content.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from './llm.ts';

/** One rule: a pattern on the user's message and what the model answers to it. */
export interface DemoRule {
  pattern: RegExp;
  answer: (match: RegExpMatchArray) => LlmResponse;
}

export interface DemoModelOptions {
  rules: readonly DemoRule[];
  /** What to say after a tool answered (by default the response's `message`, or its JSON). */
  afterTool?: (response: Record<string, unknown>, name: string) => string;
  /** What to say when no rule matches. */
  fallback: string;
  /** Pause before each streamed chunk, to make the stream visible. */
  chunkDelayMs?: number;
}

export class DemoModel extends BaseLlm {
  constructor(private readonly options: DemoModelOptions) {
    super('demo-rules');
  }

  override async *generateContentAsync(
    request: LlmRequest,
    stream = false,
    { signal }: GenerateOptions = {},
  ): AsyncGenerator<LlmResponse, void> {
    const response = this.answer(request.contents.at(-1));
    const text = response.content?.parts.length === 1 ? response.content.parts[0]!.text : undefined;
    if (stream && text) {
      for (const chunk of text.match(/\S+\s*/g) ?? []) {
        await pause(this.options.chunkDelayMs ?? 0, signal);
        yield { content: { role: 'model', parts: [{ text: chunk }] }, partial: true };
      }
    }
    signal?.throwIfAborted();
    yield response;
  }

  private answer(last: Content | undefined): LlmResponse {
    const [toolResponse] = functionResponsesOf(last);
    if (toolResponse) {
      const say =
        this.options.afterTool?.(toolResponse.response, toolResponse.name) ??
        (typeof toolResponse.response.message === 'string'
          ? toolResponse.response.message
          : JSON.stringify(toolResponse.response));
      return modelText(say);
    }
    const message = textOf(last).trim();
    for (const rule of this.options.rules) {
      const match = message.match(rule.pattern);
      if (match) return rule.answer(match);
    }
    return modelText(this.options.fallback);
  }
}

function modelText(text: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] } };
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), {
      once: true,
    });
  });
}
