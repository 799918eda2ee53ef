// "Chat with a model" (issue 33): a session that talks to a provider's model directly, without an
// agent built for it, with its own settings: provider, model, system prompt, temperature, top-p
// and max output tokens. They live in the session's state under CHAT_SETTINGS_KEY, so a change is
// an event of the session's history, and a rewind to before it brings the old settings back.
// Pure: the page reads these shapes and checks too (through protocol.ts).
//
// What must stay true: settings are checked before they are stored and again before a run (the
// State panel can edit the key as JSON like any other).

import { generateContentConfigProblem } from '../../src/models/llm.ts';

/** The agent id of a session that chats with a model (in the Agent select). */
export const MODEL_CHAT_ID = 'model-chat';

/** Where a chat keeps its settings: a session key, so rewinds and forks carry them. */
export const CHAT_SETTINGS_KEY = 'trellis:chat';

/** The author of the model's answers, whatever the settings (one conversation across changes). */
export const CHAT_AGENT_NAME = 'assistant';

export const MAX_SYSTEM_PROMPT = 20_000;

export interface ChatSettings {
  /** A provider of Settings → Providers. */
  providerId: string;
  /** The model; empty for the provider's default. */
  model: string;
  /** Given to the model before the conversation, as it is (no `{key}` placeholders). */
  systemPrompt: string;
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
}

/** What is wrong with `value` as a chat's settings, in words a user can act on. */
export function chatSettingsProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'The chat settings must be an object';
  const settings = value as Record<string, unknown>;
  if (typeof settings.providerId !== 'string' || !settings.providerId)
    return 'Choose a provider for this chat';
  if (typeof settings.model !== 'string' || settings.model.length > 200)
    return 'The model must be a name of at most 200 characters (empty: the provider’s default)';
  if (typeof settings.systemPrompt !== 'string' || settings.systemPrompt.length > MAX_SYSTEM_PROMPT)
    return `The system prompt must be a text of at most ${MAX_SYSTEM_PROMPT.toLocaleString('en')} characters`;
  const known = new Set([
    'providerId',
    'model',
    'systemPrompt',
    'temperature',
    'topP',
    'maxOutputTokens',
  ]);
  const unknown = Object.keys(settings).find((key) => !known.has(key));
  if (unknown) return `The chat settings have no field ${JSON.stringify(unknown)}`;
  return generateContentConfigProblem(settings);
}

/** `value` as settings, only the fields they have (what is stored). */
export function cleanChatSettings(value: ChatSettings): ChatSettings {
  const { providerId, model, systemPrompt, temperature, topP, maxOutputTokens } = value;
  return {
    providerId,
    model: model.trim(),
    systemPrompt,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
}

/** One line for the chat's header and its history: `Ollama · llama3.2 · temperature 0.2`. */
export function describeChatSettings(settings: ChatSettings, providerName: string): string {
  return [
    ...(providerName ? [providerName] : []),
    settings.model || 'default model',
    ...(settings.temperature !== undefined ? [`temperature ${settings.temperature}`] : []),
    ...(settings.topP !== undefined ? [`top-p ${settings.topP}`] : []),
    ...(settings.maxOutputTokens !== undefined
      ? [`max ${settings.maxOutputTokens.toLocaleString('en')} tokens`]
      : []),
    ...(settings.systemPrompt.trim() ? ['system prompt'] : []),
  ].join(' · ');
}
