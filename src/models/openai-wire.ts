// Our request and Content to the OpenAI chat-completions JSON (which Ollama, LM Studio, llama.cpp,
// vLLM and OpenRouter speak too), and its answers back. Pure: no I/O.

import { base64ToBytes, type Content, type Part } from '../core/content.ts';
import type { UsageMetadata } from '../core/event.ts';
import { attachmentKindOf } from './attachments.ts';
import type { FailureContext } from './model-errors.ts';
import { badResponse } from './model-http.ts';
import type { LlmRequest, LlmResponse } from './llm.ts';

export type OpenAiMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAiContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAiToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export type OpenAiContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

export interface OpenAiToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/** A streamed chunk, or (its `message` read as the delta) a whole completion. */
export interface OpenAiChunk {
  choices?: {
    index?: number;
    delta?: OpenAiDelta;
    message?: OpenAiDelta;
    finish_reason?: string | null;
  }[];
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | null;
  /** The model that answered (servers may name a more exact one than was asked). */
  model?: string;
  error?: unknown;
}

interface OpenAiDelta {
  content?: string | null;
  /** The model's reasoning, as DeepSeek, vLLM and llama.cpp (`reasoning_content`) or Ollama and OpenRouter (`reasoning`) send it. */
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: {
    index?: number;
    id?: string;
    function?: { name?: string; arguments?: string };
  }[];
}

/** The body of a POST /chat/completions. */
export function toOpenAiRequest(
  request: LlmRequest,
  model: string,
  stream: boolean,
): Record<string, unknown> {
  return {
    model,
    messages: toOpenAiMessages(request),
    stream,
    ...(stream ? { stream_options: { include_usage: true } } : {}),
    ...samplingOf(request),
    ...(request.tools?.length
      ? {
          tools: request.tools.map(({ name, description, parameters }) => ({
            type: 'function',
            function: {
              name,
              ...(description ? { description } : {}),
              // Some servers (llama.cpp) insist on a parameters schema, even an empty one.
              parameters: parameters ?? { type: 'object', properties: {} },
            },
          })),
        }
      : {}),
    ...(request.responseSchema
      ? {
          response_format: {
            type: 'json_schema',
            json_schema: { name: 'output', schema: request.responseSchema },
          },
        }
      : {}),
  };
}

/** The request's `config` as OpenAI-compatible servers name it (absent: their defaults). */
function samplingOf({ config }: LlmRequest): Record<string, number> {
  if (!config) return {};
  return {
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.topP !== undefined ? { top_p: config.topP } : {}),
    // `max_tokens`: what Ollama, LM Studio, llama.cpp, vLLM and OpenRouter read, and OpenAI too.
    ...(config.maxOutputTokens !== undefined ? { max_tokens: config.maxOutputTokens } : {}),
  };
}

/**
 * The conversation as chat messages. A user content's function responses become one `tool`
 * message each, in order, ahead of any text it also holds; a model content's calls become the
 * assistant's `tool_calls`. Thoughts are the model's own notes and are not sent back.
 */
export function toOpenAiMessages(request: LlmRequest): OpenAiMessage[] {
  const messages: OpenAiMessage[] = [];
  if (request.systemInstruction) {
    messages.push({ role: 'system', content: request.systemInstruction });
  }
  for (const content of request.contents) {
    if (content.role === 'model') {
      const message = assistantMessage(content);
      if (message) messages.push(message);
      continue;
    }
    for (const part of content.parts) {
      const response = part.functionResponse;
      if (!response) continue;
      messages.push({
        role: 'tool',
        tool_call_id: response.id ?? response.name,
        content: JSON.stringify(response.response),
      });
    }
    const rest = content.parts.filter((part) => !part.functionResponse && !part.thought);
    if (rest.length > 0) messages.push({ role: 'user', content: userContent(rest) });
  }
  return messages;
}

function assistantMessage(content: Content): OpenAiMessage | undefined {
  let text = '';
  const calls: OpenAiToolCall[] = [];
  for (const part of content.parts) {
    if (part.functionCall) {
      const { id, name, args } = part.functionCall;
      calls.push({
        id: id ?? name,
        type: 'function',
        function: { name, arguments: JSON.stringify(args ?? {}) },
      });
    } else if (part.text !== undefined && !part.thought) {
      text += part.text;
    }
  }
  if (!text && calls.length === 0) return undefined;
  return {
    role: 'assistant',
    content: text || null,
    ...(calls.length > 0 ? { tool_calls: calls } : {}),
  };
}

/** Plain text when that is all there is (every server takes it); parts when images come too. */
function userContent(parts: Part[]): string | OpenAiContentPart[] {
  const out: OpenAiContentPart[] = parts.flatMap((part): OpenAiContentPart[] => {
    if (part.text !== undefined) return [{ type: 'text', text: part.text }];
    const data = part.inlineData;
    if (!data) return [];
    if (data.mimeType.startsWith('image/')) {
      return [
        { type: 'image_url', image_url: { url: `data:${data.mimeType};base64,${data.data}` } },
      ];
    }
    const name = data.displayName ? ` ${data.displayName}` : '';
    if (attachmentKindOf(data.mimeType) === 'text') {
      // The server takes no files: a text file's text goes in, under its name.
      const text = new TextDecoder().decode(base64ToBytes(data.data));
      return [{ type: 'text', text: name ? `File${name}:\n${text}` : text }];
    }
    return [
      {
        type: 'text',
        text: `[The ${data.mimeType} attachment${name} was left out: this server takes text and images only.]`,
      },
    ];
  });
  return out.every((part) => part.type === 'text') ? out.map((part) => part.text).join('\n') : out;
}

/** Why a completion stopped, when that is not a normal end. */
const STOP_REASONS: Record<string, { code: string; message: string }> = {
  length: {
    code: 'MAX_TOKENS',
    message: 'The answer was cut off at the maximum number of output tokens.',
  },
  content_filter: {
    code: 'CONTENT_FILTER',
    message: 'The provider’s content filter stopped the answer.',
  },
};

/**
 * The answer being streamed: text deltas (returned per chunk for the partial response), tool
 * calls assembled by their `index` (id and name come first, the arguments JSON in pieces), the
 * finish reason and usage. `final()` parses the arguments and aggregates everything.
 */
export class OpenAiAnswer {
  private text = '';
  private thoughts = '';
  private readonly calls: { id: string; name: string; arguments: string }[] = [];
  private usage: UsageMetadata | undefined;
  private modelVersion: string | undefined;
  private finishReason: string | undefined;
  private choices = 0;

  constructor(private readonly context: FailureContext) {}

  get finished(): boolean {
    return this.finishReason !== undefined;
  }

  get answered(): boolean {
    return this.choices > 0;
  }

  add(chunk: OpenAiChunk): Part[] {
    if (chunk.usage) this.usage = toUsage(chunk.usage);
    if (typeof chunk.model === 'string' && chunk.model) this.modelVersion = chunk.model;
    const choice = chunk.choices?.[0];
    if (!choice) return []; // the usage chunk has no choices
    this.choices++;
    if (choice.finish_reason) this.finishReason = choice.finish_reason;
    const delta = choice.delta ?? choice.message ?? {};
    const fresh: Part[] = [];
    const reasoning = delta.reasoning_content ?? delta.reasoning;
    if (typeof reasoning === 'string' && reasoning) {
      this.thoughts += reasoning;
      fresh.push({ text: reasoning, thought: true });
    }
    if (typeof delta.content === 'string' && delta.content) {
      this.text += delta.content;
      fresh.push({ text: delta.content });
    }
    delta.tool_calls?.forEach((call, position) => {
      // A whole completion's calls have no index: their position is it.
      const slot = (this.calls[call.index ?? position] ??= { id: '', name: '', arguments: '' });
      if (call.id) slot.id = call.id;
      if (call.function?.name) slot.name = call.function.name;
      if (call.function?.arguments) slot.arguments += call.function.arguments;
    });
    return fresh;
  }

  final(): LlmResponse {
    const parts: Part[] = [];
    if (this.thoughts) parts.push({ text: this.thoughts, thought: true });
    if (this.text) parts.push({ text: this.text });
    for (const call of this.calls) {
      if (!call) continue; // an index skipped by the server
      if (!call.name) throw badResponse(this.context, 'a tool call without a function name');
      parts.push({
        functionCall: {
          ...(call.id ? { id: call.id } : {}),
          name: call.name,
          args: this.parseArguments(call.name, call.arguments),
        },
      });
    }
    const stop = this.finishReason ? STOP_REASONS[this.finishReason] : undefined;
    return {
      ...(parts.length > 0 ? { content: { role: 'model', parts } } : {}),
      ...(stop ? { errorCode: stop.code, errorMessage: stop.message } : {}),
      ...(this.usage ? { usageMetadata: this.usage } : {}),
      ...(this.modelVersion ? { modelVersion: this.modelVersion } : {}),
    };
  }

  private parseArguments(name: string, text: string): Record<string, unknown> {
    if (text.trim() === '') return {};
    let args: unknown;
    try {
      args = JSON.parse(text);
    } catch (error) {
      throw badResponse(this.context, `arguments for ${name} that are not valid JSON`, error);
    }
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw badResponse(this.context, `arguments for ${name} that are not a JSON object`);
    }
    return args as Record<string, unknown>;
  }
}

function toUsage(usage: NonNullable<OpenAiChunk['usage']>): UsageMetadata {
  const out: UsageMetadata = {};
  if (usage.prompt_tokens !== undefined) out.promptTokenCount = usage.prompt_tokens;
  if (usage.completion_tokens !== undefined) out.candidatesTokenCount = usage.completion_tokens;
  if (usage.total_tokens !== undefined) out.totalTokenCount = usage.total_tokens;
  return out;
}
