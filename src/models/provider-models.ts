// A stored provider turned into a model to call: a GeminiModel or an OpenAiCompatibleModel, so
// that the worker and the tests build models the same way.
//
// What must stay true: the key is read only here (to build a model) and by the store.

import { InvalidRequestError } from '../core/errors.ts';
import { GeminiModel } from './gemini-model.ts';
import type { HttpModelOptions } from './model-http.ts';
import { OpenAiCompatibleModel } from './openai-compatible-model.ts';
import type { ProviderSpec } from './provider-spec.ts';

/** The model `modelName` (or the provider's default) on this provider, ready to call. */
export function createProviderModel(
  spec: ProviderSpec,
  modelName?: string,
  http: HttpModelOptions = {},
): GeminiModel | OpenAiCompatibleModel {
  const model = modelName?.trim() || spec.defaultModel.trim();
  if (!model) {
    throw new InvalidRequestError(
      `No model chosen: pick one for the agent, or a default model for ${spec.name} in Settings → Providers`,
    );
  }
  return providerClient(spec, model, http);
}

/** A client to list the provider's models (the model name does not matter for that). */
export function providerClient(
  spec: ProviderSpec,
  model = spec.defaultModel || 'none',
  http: HttpModelOptions = {},
): GeminiModel | OpenAiCompatibleModel {
  switch (spec.kind) {
    case 'gemini':
      if (!spec.apiKey) {
        throw new InvalidRequestError(
          `${spec.name} (Gemini) needs an API key: add one in Settings → Providers`,
        );
      }
      return new GeminiModel({ ...http, model, apiKey: spec.apiKey, baseUrl: spec.baseUrl });
    case 'openai-compatible':
      return new OpenAiCompatibleModel({
        ...http,
        model,
        baseUrl: spec.baseUrl,
        providerName: spec.name,
        ...(spec.apiKey ? { apiKey: spec.apiKey } : {}),
      });
    case 'local-gguf':
      // Its model needs the file and wllama, which the app's worker has
      // (workers/local-models/local-models.ts).
      throw new InvalidRequestError(
        `${spec.name} is a local model: it runs in the app, from its file in Settings → Providers`,
      );
    default:
      throw new Error(`Unknown provider kind ${(spec as { kind: string }).kind}`);
  }
}
