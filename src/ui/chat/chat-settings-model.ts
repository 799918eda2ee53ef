// The Model settings form of a chat with a model (workers/agents/chat-settings.ts): its fields as
// typed (numbers as text, empty for the provider's default) to and from the settings, checked as
// the worker checks them, so the form says what is wrong before anything is sent.

import {
  CHAT_SETTINGS_KEY,
  chatSettingsProblem,
  cleanChatSettings,
  describeChatSettings,
  type ChatSettings,
  type ProviderInfo,
} from '../../../workers/protocol.ts';

export interface ChatSettingsDraft {
  providerId: string;
  model: string;
  systemPrompt: string;
  temperature: string;
  topP: string;
  maxOutputTokens: string;
}

/** The settings a chat runs with: its own, else the first provider's default model. */
export function effectiveSettings(
  own: ChatSettings | undefined,
  providers: readonly ProviderInfo[],
): ChatSettings | undefined {
  if (own) return own;
  const first = providers[0];
  return first && { providerId: first.id, model: '', systemPrompt: '' };
}

export function draftOf(settings: ChatSettings | undefined): ChatSettingsDraft {
  const text = (value: number | undefined) => (value === undefined ? '' : String(value));
  return {
    providerId: settings?.providerId ?? '',
    model: settings?.model ?? '',
    systemPrompt: settings?.systemPrompt ?? '',
    temperature: text(settings?.temperature),
    topP: text(settings?.topP),
    maxOutputTokens: text(settings?.maxOutputTokens),
  };
}

/** The draft as settings, or what is wrong with it (in the worker's words). */
export function settingsOf(
  draft: ChatSettingsDraft,
): { settings: ChatSettings } | { problem: string } {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text.trim()));
  const temperature = number(draft.temperature);
  const topP = number(draft.topP);
  const maxOutputTokens = number(draft.maxOutputTokens);
  const settings: ChatSettings = {
    providerId: draft.providerId,
    model: draft.model,
    systemPrompt: draft.systemPrompt,
    ...(temperature !== undefined ? { temperature } : {}),
    ...(topP !== undefined ? { topP } : {}),
    ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
  };
  const problem = chatSettingsProblem(settings);
  return problem ? { problem } : { settings: cleanChatSettings(settings) };
}

/** What the chat's header says of its model: `Fixture · fixture-text · temperature 0.2`. */
export function settingsLine(
  settings: ChatSettings | undefined,
  providers: readonly ProviderInfo[],
): string {
  if (!settings) return 'No provider yet: add one in Settings → Providers';
  const provider = providers.find((item) => item.id === settings.providerId);
  if (!provider) return 'Its provider was deleted: choose another';
  return describeChatSettings(
    { ...settings, model: settings.model || provider.defaultModel },
    provider.name,
  );
}

/** Whether `value` (a state value) looks like stored settings (not a long value's preview). */
export function isChatSettings(value: unknown): value is ChatSettings {
  return chatSettingsProblem(value) === undefined;
}

/**
 * How the chat names a change of its settings (a state edit of CHAT_SETTINGS_KEY alone):
 * `Model settings: fixture-text · temperature 0.2`; `undefined` for any other edit.
 */
export function chatSettingsNote(delta: Readonly<Record<string, unknown>>): string | undefined {
  const keys = Object.keys(delta);
  if (keys.length !== 1 || keys[0] !== CHAT_SETTINGS_KEY) return undefined;
  const settings = delta[CHAT_SETTINGS_KEY];
  if (!isChatSettings(settings)) return undefined;
  // The provider's name is not in the log: its model and settings say enough here.
  return `Model settings: ${describeChatSettings(settings, '')}`;
}

/**
 * A History row's text for a turn: the store titles a settings change as any state edit
 * (`State edited: trellis:chat = {…}`, cut short); History says what it was.
 */
export function turnRowText(text: string): string {
  return text.startsWith(`State edited: ${CHAT_SETTINGS_KEY} = `) ? 'Model settings changed' : text;
}
