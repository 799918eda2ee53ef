// The Model settings form of a chat with a model: fields as typed to settings and back, the
// worker's checks before anything is sent, the header's line and the chat's note of a change.

import { describe, expect, it } from 'vitest';
import {
  chatSettingsNote,
  draftOf,
  effectiveSettings,
  settingsLine,
  settingsOf,
  turnRowText,
} from '../../../src/ui/chat/chat-settings-model.ts';
import { CHAT_SETTINGS_KEY, type ProviderInfo } from '../../../workers/protocol.ts';

const PROVIDERS: ProviderInfo[] = [
  {
    id: 'p1',
    kind: 'openai-compatible',
    name: 'Ollama',
    baseUrl: 'http://127.0.0.1:11434/v1',
    defaultModel: 'llama3.2',
    updatedAt: 1,
  },
  {
    id: 'p2',
    kind: 'gemini',
    name: 'Gemini',
    baseUrl: '',
    defaultModel: 'gemini-2.5-flash',
    updatedAt: 1,
  },
];

describe('chat settings form', () => {
  it('turns typed fields into settings, empty numbers meaning the provider’s default', () => {
    const draft = {
      ...draftOf(undefined),
      providerId: 'p2',
      model: ' gemini-2.5-pro ',
      systemPrompt: 'Be brief.',
      temperature: '0.4',
      topP: '',
      maxOutputTokens: ' 512 ',
    };
    expect(settingsOf(draft)).toEqual({
      settings: {
        providerId: 'p2',
        model: 'gemini-2.5-pro',
        systemPrompt: 'Be brief.',
        temperature: 0.4,
        maxOutputTokens: 512,
      },
    });
    // And back: what the form shows for stored settings.
    expect(draftOf({ providerId: 'p2', model: 'm', systemPrompt: '', topP: 0.9 })).toEqual({
      providerId: 'p2',
      model: 'm',
      systemPrompt: '',
      temperature: '',
      topP: '0.9',
      maxOutputTokens: '',
    });
  });

  it.each([
    [{ temperature: 'warm' }, 'Temperature must be a number from 0 to 2'],
    [{ temperature: '2.1' }, 'Temperature must be a number from 0 to 2'],
    [{ topP: '0' }, 'Top-p must be a number above 0 and at most 1'],
    [{ maxOutputTokens: '1.5' }, 'Max output tokens must be a whole number from 1 to 1,000,000'],
    [{ providerId: '' }, 'Choose a provider for this chat'],
  ])('says what is wrong with %j before anything is sent', (patch, problem) => {
    expect(settingsOf({ ...draftOf(effectiveSettings(undefined, PROVIDERS)), ...patch })).toEqual({
      problem,
    });
  });

  it('runs on the first provider’s default model until the chat has its own settings', () => {
    expect(effectiveSettings(undefined, PROVIDERS)).toEqual({
      providerId: 'p1',
      model: '',
      systemPrompt: '',
    });
    expect(effectiveSettings(undefined, [])).toBeUndefined();
    const own = { providerId: 'p2', model: '', systemPrompt: '' };
    expect(effectiveSettings(own, PROVIDERS)).toBe(own);
  });

  it('names the model in the header, and says what to do when it cannot', () => {
    expect(settingsLine({ providerId: 'p1', model: '', systemPrompt: '' }, PROVIDERS)).toBe(
      'Ollama · llama3.2',
    );
    expect(
      settingsLine(
        {
          providerId: 'p2',
          model: 'gemini-2.5-pro',
          systemPrompt: 'Be brief.',
          temperature: 0,
          topP: 0.5,
          maxOutputTokens: 2048,
        },
        PROVIDERS,
      ),
    ).toBe(
      'Gemini · gemini-2.5-pro · temperature 0 · top-p 0.5 · max 2,048 tokens · system prompt',
    );
    expect(settingsLine({ providerId: 'gone', model: '', systemPrompt: '' }, PROVIDERS)).toBe(
      'Its provider was deleted: choose another',
    );
    expect(settingsLine(undefined, [])).toBe('No provider yet: add one in Settings → Providers');
  });

  it('names a change of settings in the chat and History, and no other state edit', () => {
    const settings = { providerId: 'p1', model: 'qwen3', systemPrompt: '', temperature: 1 };
    expect(chatSettingsNote({ [CHAT_SETTINGS_KEY]: settings })).toBe(
      'Model settings: qwen3 · temperature 1',
    );
    expect(chatSettingsNote({ [CHAT_SETTINGS_KEY]: settings, other: 1 })).toBeUndefined();
    expect(chatSettingsNote({ [CHAT_SETTINGS_KEY]: { providerId: 7 } })).toBeUndefined();
    expect(chatSettingsNote({ color: 'blue' })).toBeUndefined();
    expect(turnRowText(`State edited: ${CHAT_SETTINGS_KEY} = {"providerId":"p1",…`)).toBe(
      'Model settings changed',
    );
    expect(turnRowText('State edited: color = blue')).toBe('State edited: color = blue');
  });
});
