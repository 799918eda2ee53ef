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

/**
 * How the model should generate (ADK's `GenerateContentConfig`, the fields every provider of
 * Trellis sends: OpenAI-compatible `temperature` / `top_p` / `max_tokens`, Gemini's
 * `generationConfig`, a local model's sampling). Absent fields are the provider's defaults.
 */
export interface GenerateContentConfig {
  /** Randomness, 0 to 2. */
  temperature?: number;
  /** Nucleus sampling: the share of probability mass sampled from, above 0 and at most 1. */
  topP?: number;
  /** The longest answer, in tokens (a whole number from 1). */
  maxOutputTokens?: number;
}

/** What is wrong with a config, in words a user can act on; `undefined` when nothing is. */
export function generateContentConfigProblem(config: GenerateContentConfig): string | undefined {
  const { temperature, topP, maxOutputTokens } = config;
  const number = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
  if (temperature !== undefined && !(number(temperature) && temperature >= 0 && temperature <= 2))
    return 'Temperature must be a number from 0 to 2';
  if (topP !== undefined && !(number(topP) && topP > 0 && topP <= 1))
    return 'Top-p must be a number above 0 and at most 1';
  if (
    maxOutputTokens !== undefined &&
    !(Number.isInteger(maxOutputTokens) && maxOutputTokens >= 1 && maxOutputTokens <= 1_000_000)
  )
    return 'Max output tokens must be a whole number from 1 to 1,000,000';
  return undefined;
}

export interface LlmRequest {
  /** The model name, when the caller wants a different one than the model's default. */
  model?: string;
  /** How to generate (the agent's `generateContentConfig`, copied for each call). */
  config?: GenerateContentConfig;
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
