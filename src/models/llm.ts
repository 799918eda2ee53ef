// The model interface: one request in, a stream of responses out.

import type { Content } from '../core/content.ts';
import type { UsageMetadata } from '../core/event.ts';
import type { ModelWait } from '../core/model-wait.ts';

/** A JSON Schema (the subset models understand: type, properties, required, items, enum, …). */
export interface JsonSchema {
  type?: string | string[];
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  additionalProperties?: boolean | JsonSchema;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  [keyword: string]: unknown;
}

export interface FunctionDeclaration {
  name: string;
  description?: string;
  /** JSON Schema of the arguments object. */
  parameters?: JsonSchema;
}

export interface LlmRequest {
  /** The model name, when the caller wants a different one than the model's default. */
  model?: string;
  contents: Content[];
  systemInstruction?: string;
  tools?: FunctionDeclaration[];
  /** Ask for a JSON object shaped like this schema (structured output). */
  responseSchema?: JsonSchema;
}

export interface LlmResponse {
  content?: Content;
  /** A streaming chunk; the aggregated response follows without `partial`. */
  partial?: boolean;
  turnComplete?: boolean;
  errorCode?: string;
  errorMessage?: string;
  usageMetadata?: UsageMetadata;
  /** The model that answered, as the provider names it (it may differ from the one asked). */
  modelVersion?: string;
  /**
   * What the user should know of how the answer was made (a local model leaving the oldest
   * turns out of the request, say): shown in the chat beside it, never sent to a model.
   */
  notice?: string;
}

export interface GenerateOptions {
  /** Aborts the request (the Stop button, a cancelled run). */
  signal?: AbortSignal;
  /** Told before the model waits to try its provider again (see core/model-wait.ts). */
  onWait?: (wait: ModelWait) => void;
}

export abstract class BaseLlm {
  constructor(readonly model: string) {}

  /**
   * Streams the model's answer to `request`. With `stream`, partial responses (text so far) come
   * first and a final, non-partial response ends the stream; without it, one final response.
   * Throws on failure (network, provider error): the agent turns that into an error event.
   */
  abstract generateContentAsync(
    request: LlmRequest,
    stream?: boolean,
    options?: GenerateOptions,
  ): AsyncGenerator<LlmResponse, void>;
}
