// The offline demo model: deterministic, no network, honestly not an LLM. It lets the app work
// out of the box and shows the mechanics (tool calls, state, artifacts, streaming, workflows).

import { functionResponsesOf, textOf, type Content } from '../core/content.ts';
import { BaseLlm, type GenerateOptions, type LlmRequest, type LlmResponse } from './llm.ts';

export interface DemoModelOptions {
  /** The answer to a request: text, or a response (a function call, say). */
  answer: (request: LlmRequest) => LlmResponse | string;
  /** Pause before answering, to make each step visible (and a reload mid-run real). */
  thinkMs?: number;
  /** Pause before each streamed chunk. */
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
    await pause(this.options.thinkMs ?? 0, signal);
    // Its own words so far (an answer that was stopped, carried on): it answers the request
    // before them and says only the rest, as a model continues a partial answer.
    const said = wordsSoFar(request);
    const asked = said ? { ...request, contents: request.contents.slice(0, -1) } : request;
    const answer = this.options.answer(asked);
    let response = typeof answer === 'string' ? modelText(answer) : answer;
    const whole =
      response.content?.parts.length === 1 ? response.content.parts[0]!.text : undefined;
    if (said && whole?.startsWith(said) && whole.length > said.length)
      response = { ...response, ...modelText(whole.slice(said.length)) };
    const parts = response.content?.parts ?? [];
    const text = parts.length === 1 ? parts[0]!.text : undefined;
    if (stream && text) {
      for (const chunk of text.match(/\S+\s*/g) ?? []) {
        await pause(this.options.chunkDelayMs ?? 0, signal);
        yield { content: { role: 'model', parts: [{ text: chunk }] }, partial: true };
      }
    }
    signal?.throwIfAborted();
    yield response;
  }
}

/** The text of the model's own last content, when the request ends with its words. */
function wordsSoFar(request: LlmRequest): string | undefined {
  const last = request.contents.at(-1);
  if (last?.role !== 'model' || !last.parts.every((part) => part.text !== undefined)) return;
  return textOf(last) || undefined;
}

export function modelText(text: string): LlmResponse {
  return { content: { role: 'model', parts: [{ text }] } };
}

export function callFunction(name: string, args: Record<string, unknown>): LlmResponse {
  return { content: { role: 'model', parts: [{ functionCall: { name, args } }] } };
}

/** The function response the request ends with, if the last thing the model got was one. */
export function lastToolResponse(request: LlmRequest) {
  return functionResponsesOf(request.contents.at(-1))[0];
}

/** The user's own latest message (not another agent's words, not a tool result) and its index. */
export function lastUserMessage(request: LlmRequest): { text: string; index: number } {
  for (let i = request.contents.length - 1; i >= 0; i--) {
    const content: Content = request.contents[i]!;
    const text = textOf(content);
    if (content.role === 'user' && text && !text.startsWith('For context:'))
      return { text, index: i };
  }
  return { text: '', index: -1 };
}

/** Waits `ms`; an abort rejects at once, without a pause too (so Stop lands between chunks). */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(signal.reason);
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), {
      once: true,
    });
  });
}
