// "Chat with a model" in the app's runtime (Node over fake-indexeddb), against the fixture model
// server over real HTTP: a session talks to a provider's model with its own settings (provider,
// model, system prompt, temperature, top-p, max output tokens), a change is an event of its
// history that a rewind takes back, bad settings are refused and change nothing, and a chat
// whose provider is gone says so when asked to answer.

import 'fake-indexeddb/auto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHAT_SETTINGS_KEY,
  MODEL_CHAT_ID,
  type ChatSettings,
  type ProviderInput,
} from '../../../workers/protocol.ts';
import { runEvents } from '../../support/fixture-agent.ts';
import { rejectionOf } from '../../support/helpers.ts';
import type { AppRuntime } from '../../../workers/app.ts';
import { fixtureProvider, recordingRuntime } from '../../support/app-runtime.ts';
import { startModelServer, type ModelServer } from '../../support/model-server.ts';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer();
});
afterAll(() => server.close());

const open = () => recordingRuntime().runtime;
const provider = (overrides: Partial<ProviderInput> = {}) => fixtureProvider(server.url, overrides);

async function send(runtime: AppRuntime, sessionId: string, text: string) {
  const before = server.requests.length;
  const { error } = await runEvents((onEvent) => runtime.runs.send(sessionId, text, onEvent));
  const sent = server.requests.slice(before).map((request) => request.body as Record<string, any>);
  return { error, sent };
}

async function chatSession(runtime: AppRuntime) {
  const session = await runtime.createSession(MODEL_CHAT_ID);
  return session.id;
}

describe('Chat with a model', () => {
  it('is offered once there is a provider, first in the Agent select', async () => {
    const runtime = open();
    expect((await runtime.agents()).some((agent) => agent.id === MODEL_CHAT_ID)).toBe(false);
    await runtime.providers.save(provider());
    const agents = await runtime.agents();
    expect(agents[0]).toMatchObject({ id: MODEL_CHAT_ID, kind: 'model' });
  });

  it("talks to the first provider's default model until told otherwise", async () => {
    const runtime = open();
    await runtime.providers.save(provider());
    const sessionId = await chatSession(runtime);
    const { error, sent } = await send(runtime, sessionId, 'Why is the sky blue?');
    expect(error).toBeUndefined();
    expect(sent[0]).toMatchObject({ model: 'fixture-text' });
    expect(sent[0]).not.toHaveProperty('temperature');
    const snapshot = await runtime.openSession(sessionId);
    expect(snapshot.events.at(-1)?.author).toBe('assistant');
  });

  it('sends what the settings say; a change is a state event that a rewind takes back', async () => {
    const runtime = open();
    const { id: providerId } = await runtime.providers.save(provider());
    const sessionId = await chatSession(runtime);
    const settings: ChatSettings = {
      providerId,
      model: 'fixture-text@precise',
      systemPrompt: 'Answer in {one} word. {"json": true}',
      temperature: 0.2,
      topP: 0.5,
      maxOutputTokens: 64,
    };
    await runtime.modelChat.setSettings(sessionId, settings);
    const first = await send(runtime, sessionId, 'Hello');
    expect(first.sent[0]).toMatchObject({
      model: 'fixture-text@precise',
      temperature: 0.2,
      top_p: 0.5,
      max_tokens: 64,
    });
    // The system prompt as written: its braces are not state placeholders.
    expect(first.sent[0]!.messages[0]).toEqual({
      role: 'system',
      content: expect.stringContaining('Answer in {one} word. {"json": true}'),
    });

    const warmer = { ...settings, temperature: 1.1 };
    await runtime.modelChat.setSettings(sessionId, warmer);
    const second = await send(runtime, sessionId, 'Again');
    expect(second.sent[0]!.temperature).toBe(1.1);
    const events = (await runtime.openSession(sessionId)).events;
    const changes = events.filter((event) => event.actions.stateDelta[CHAT_SETTINGS_KEY]);
    expect(changes).toHaveLength(2);

    // Rewinding the second change (and the turn after it) brings the first settings back.
    await runtime.rewinds.rewind(sessionId, changes[1]!.invocationId);
    expect((await runtime.openSession(sessionId)).state[CHAT_SETTINGS_KEY]).toEqual(settings);
    const third = await send(runtime, sessionId, 'Once more');
    expect(third.sent[0]!.temperature).toBe(0.2);
  });

  it("takes the files its own provider's models take, not the default provider's", async () => {
    const runtime = open();
    // "A…" sorts first: the default provider, whose files the Agent select's entry names.
    await runtime.providers.save(
      provider({ kind: 'gemini', name: 'A Gemini', baseUrl: `${server.url}/v1beta`, apiKey: 'k' }),
    );
    const { id: openAi } = await runtime.providers.save(provider({ name: 'B OpenAI' }));
    expect((await runtime.agents())[0]!.attachments?.kinds).toContain('pdf');
    const sessionId = await chatSession(runtime);
    await runtime.modelChat.setSettings(sessionId, {
      providerId: openAi,
      model: '',
      systemPrompt: '',
    });
    const pdf = {
      name: 'report.pdf',
      mimeType: 'application/pdf',
      bytes: new Uint8Array([37, 80]),
    };
    const before = (await runtime.openSession(sessionId)).events.length;
    const { error: refused } = await runEvents((onEvent) =>
      runtime.runs.send(sessionId, 'Read this', onEvent, [pdf]),
    );
    expect(refused?.name).toBe('InvalidRequestError');
    expect(refused?.message).toMatch(/OpenAI-compatible/);
    expect((await runtime.openSession(sessionId)).events).toHaveLength(before);

    const png = { name: 'dot.png', mimeType: 'image/png', bytes: new Uint8Array([137, 80]) };
    const { error } = await runEvents((onEvent) =>
      runtime.runs.send(sessionId, 'See this', onEvent, [png]),
    );
    expect(error).toBeUndefined();
    const sent = server.requests.at(-1)!.body as Record<string, any>;
    expect(JSON.stringify(sent.messages)).toContain('image_url');
  });

  it('writes nothing for settings that change nothing', async () => {
    const runtime = open();
    const { id: providerId } = await runtime.providers.save(provider());
    const sessionId = await chatSession(runtime);
    const settings = { providerId, model: '', systemPrompt: '' };
    await runtime.modelChat.setSettings(sessionId, settings);
    const count = (await runtime.openSession(sessionId)).events.length;
    await runtime.modelChat.setSettings(sessionId, { ...settings, model: '  ' });
    expect((await runtime.openSession(sessionId)).events).toHaveLength(count);
  });

  it.each([
    [{ temperature: 3 }, 'Temperature must be a number from 0 to 2'],
    [{ topP: 0 }, 'Top-p must be a number above 0 and at most 1'],
    [{ maxOutputTokens: -1 }, 'Max output tokens must be a whole number from 1 to 1,000,000'],
    [{ providerId: '' }, 'Choose a provider for this chat'],
    [{ providerId: 'nope' }, 'There is no provider nope'],
    [{ systemPrompt: 'x'.repeat(20_001) }, 'The system prompt must be a text of at most 20,000'],
    [{ apiKey: 'sk-secret' }, 'The chat settings have no field "apiKey"'],
  ])('refuses %j, saying why, and changes nothing', async (bad, message) => {
    const runtime = open();
    const { id: providerId } = await runtime.providers.save(provider());
    const sessionId = await chatSession(runtime);
    const before = await runtime.openSession(sessionId);
    const error = await rejectionOf(
      runtime.modelChat.setSettings(sessionId, {
        providerId,
        model: '',
        systemPrompt: '',
        ...bad,
      } as ChatSettings),
    );
    expect(error.name).toBe('InvalidRequestError');
    expect(error.message).toContain(message);
    expect((await runtime.openSession(sessionId)).events).toEqual(before.events);
  });

  it('refuses settings for an unknown session', async () => {
    const runtime = open();
    const { id: providerId } = await runtime.providers.save(provider());
    const error = await rejectionOf(
      runtime.modelChat.setSettings('no-such-session', { providerId, model: '', systemPrompt: '' }),
    );
    expect(error.name).toBe('SessionNotFoundError');
  });

  it('says what to do when its provider was deleted, or its settings were edited bad', async () => {
    const runtime = open();
    const { id: providerId } = await runtime.providers.save(provider());
    const { id: other } = await runtime.providers.save(provider({ name: 'Other' }));
    const sessionId = await chatSession(runtime);
    await runtime.modelChat.setSettings(sessionId, {
      providerId: other,
      model: '',
      systemPrompt: '',
    });
    await runtime.providers.remove(other);
    const gone = await send(runtime, sessionId, 'Hello?');
    expect(gone.sent).toEqual([]);
    expect(gone.error?.message).toContain('This chat’s provider was deleted');

    // The State panel edits the key as JSON: a bad value is refused at the run, not obeyed.
    await runtime.stateEdits.editState(sessionId, {
      [CHAT_SETTINGS_KEY]: { providerId, model: '', systemPrompt: '', temperature: 9 },
    });
    const bad = await send(runtime, sessionId, 'Hello?');
    expect(bad.sent).toEqual([]);
    expect(bad.error?.message).toContain('Temperature must be a number from 0 to 2');

    // Fixed, it answers again.
    await runtime.modelChat.setSettings(sessionId, { providerId, model: '', systemPrompt: '' });
    expect((await send(runtime, sessionId, 'Hello?')).error).toBeUndefined();
  });

  it("the context meter judges a chat by its model's window", async () => {
    const runtime = open();
    await runtime.providers.save(provider({ contextTokens: 4096 }));
    const sessionId = await chatSession(runtime);
    await send(runtime, sessionId, 'Hello');
    const use = await runtime.sessionContext(sessionId);
    expect(use?.window?.tokens).toBe(4096);
    expect(use?.compactAt).toBeGreaterThan(0);
  });

  it('keeps the key out of the settings, the events and the session file', async () => {
    const runtime = open();
    const { id: providerId } = await runtime.providers.save(provider({ apiKey: 'sk-SECRET-1234' }));
    const sessionId = await chatSession(runtime);
    await runtime.modelChat.setSettings(sessionId, { providerId, model: '', systemPrompt: 'Hi' });
    await send(runtime, sessionId, 'Hello');
    const { json } = await runtime.exportSession(sessionId);
    expect(json).toContain(CHAT_SETTINGS_KEY);
    expect(json).not.toContain('sk-SECRET');
    expect(JSON.stringify((await runtime.openSession(sessionId)).events)).not.toContain(
      'sk-SECRET',
    );
  });
});
