// The worker's side of "Chat with a model" (chat-settings.ts says what it is): the agent of such a
// session, built from the settings its state holds (one runner per settings, cached by
// agents.ts like any agent's), and the change of a chat's settings, written as a state edit.
//
// What must stay true:
// - settings are checked (and their provider must exist) before they are written; a change that
//   changes nothing writes nothing;
// - building the agent never fails: settings gone bad (a deleted provider, an edit in the State
//   panel) make an agent whose run says what is wrong and how to fix it;
// - without settings, the chat uses the first provider and its default model.

import { sameValue } from '../../src/core/state.ts';
import { BaseAgent, InvalidRequestError, LlmAgent, type Event } from '../../src/index.ts';
import { attachmentPolicy, type AttachmentPolicy } from '../../src/models/attachments.ts';
import type { AgentSource } from '../flows/flows.ts';
import type { AgentInfo } from '../protocol.ts';
import type { AppProviders, OpenedProvider } from '../providers.ts';
import {
  CHAT_AGENT_NAME,
  CHAT_SETTINGS_KEY,
  MODEL_CHAT_ID,
  chatSettingsProblem,
  cleanChatSettings,
  type ChatSettings,
} from './chat-settings.ts';
import { agentWindow, defaultCompactors, type AgentContext } from './compaction.ts';

type State = Readonly<Record<string, unknown>>;

export class ModelChat {
  constructor(
    private readonly providers: AppProviders,
    private readonly sessions: {
      /** The State panel's edit (state-edits.ts): under the session's lock, broadcast. */
      edit: (sessionId: string, changes: Record<string, unknown>) => Promise<Event>;
      /** A session's state now; SessionNotFoundError for an unknown one. */
      stateOf: (sessionId: string) => Promise<State>;
    },
  ) {}

  /** Its entry in the Agent select, once there is a provider to chat with. */
  async agentInfos(): Promise<AgentInfo[]> {
    const [first] = await this.providers.list();
    if (!first) return [];
    return [
      {
        id: MODEL_CHAT_ID,
        name: 'A model, with this chat’s settings',
        description:
          'Talk to a model of your providers directly: choose it, a system prompt, temperature, top-p and max output tokens in Model settings, for this chat only.',
        kind: 'model',
        // The files the default provider's models take (a chat on another may take others).
        attachments: attachmentPolicy(first.kind),
      },
    ];
  }

  /** The settings a chat runs with: its own, else the first provider's default model. */
  async settingsOf(state: State): Promise<ChatSettings | undefined> {
    const own = state[CHAT_SETTINGS_KEY];
    if (own !== undefined) return own as ChatSettings;
    const [first] = await this.providers.list();
    return first && { providerId: first.id, model: '', systemPrompt: '' };
  }

  /** The agent of a chat whose state is `state` (its version: what it is built from). */
  async source(state: State): Promise<AgentSource> {
    const settings = await this.settingsOf(state);
    const problem = settings
      ? chatSettingsProblem(settings)
      : 'A chat with a model needs a provider: add one in Settings → Providers';
    if (problem || !settings) return failing(problem!);
    const record = await this.providers.record(settings.providerId).catch(() => undefined);
    if (!record)
      return failing(
        'This chat’s provider was deleted: choose another in the chat’s settings (Model settings)',
      );
    const { temperature, topP, maxOutputTokens, systemPrompt } = settings;
    const config = {
      ...(temperature !== undefined ? { temperature } : {}),
      ...(topP !== undefined ? { topP } : {}),
      ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}),
    };
    return {
      version: JSON.stringify([settings, record.id, record.updatedAt]),
      create: () => {
        const model = this.providers.model(record, settings.model);
        return new LlmAgent({
          name: CHAT_AGENT_NAME,
          model,
          // As written: a system prompt's braces are not state placeholders.
          instruction: () => systemPrompt,
          ...(Object.keys(config).length > 0 ? { generateContentConfig: config } : {}),
          // A long chat compacts as a builder agent's does (compaction.ts).
          contextCompactors: defaultCompactors({}, model, () =>
            agentWindow(this.providers, record, settings.model),
          ),
        });
      },
    };
  }

  /**
   * The files a chat's message may carry: those its own provider's models take (the Agent
   * select's entry says the default provider's); none known, the default's.
   */
  async attachmentsOf(sessionId: string): Promise<AttachmentPolicy | undefined> {
    const chosen = await this.chosen(await this.sessions.stateOf(sessionId)).catch(() => undefined);
    if (chosen) return attachmentPolicy(chosen.record.kind);
    return (await this.agentInfos())[0]?.attachments;
  }

  /** What the context meter needs of a chat's model: its window, and that it compacts. */
  async contextAgent(sessionId: string): Promise<AgentContext> {
    const chosen = await this.chosen(await this.sessions.stateOf(sessionId)).catch(() => undefined);
    const window = chosen && agentWindow(this.providers, chosen.record, chosen.settings.model);
    return { agentName: CHAT_AGENT_NAME, window, compacts: !!window };
  }

  /**
   * A chat's usable settings and the provider they choose (undefined: none, or not usable);
   * InvalidRequestError when that provider was deleted.
   */
  async chosen(
    state: State,
  ): Promise<{ settings: ChatSettings; record: OpenedProvider } | undefined> {
    const settings = await this.settingsOf(state);
    if (!settings || chatSettingsProblem(settings)) return undefined;
    return { settings, record: await this.providers.record(settings.providerId) };
  }

  /**
   * Sets a chat's settings: checked, its provider known, written as a state edit (a rewind to
   * before it brings the old ones back). Nothing is written when they are the same.
   */
  async setSettings(sessionId: string, settings: ChatSettings): Promise<void> {
    const problem = chatSettingsProblem(settings);
    if (problem) throw new InvalidRequestError(problem);
    const clean = cleanChatSettings(settings);
    await this.providers.record(clean.providerId).catch(() => {
      throw new InvalidRequestError(`There is no provider ${clean.providerId}`);
    });
    const current = await this.sessions.stateOf(sessionId);
    if (sameValue(current[CHAT_SETTINGS_KEY], clean)) return;
    await this.sessions.edit(sessionId, { [CHAT_SETTINGS_KEY]: clean });
  }
}

/** An agent that says what stands in the way of the chat, when asked to answer. */
function failing(problem: string): AgentSource {
  return { version: `failing ${problem}`, create: () => new ChatThatCannotRun(problem) };
}

class ChatThatCannotRun extends BaseAgent {
  constructor(private readonly problem: string) {
    super({ name: CHAT_AGENT_NAME });
  }

  // eslint-disable-next-line require-yield
  protected override async *runAsyncImpl(): AsyncGenerator<Event, void> {
    throw new InvalidRequestError(this.problem);
  }
}
