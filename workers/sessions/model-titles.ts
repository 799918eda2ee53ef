// Titles written by the model (issue 33): after a session's first turn ends with an answer, the
// model that answered is asked for a short title, which replaces the one taken from the first
// message; and the session menu's "Write a title" asks it now, for any model.
//
// What must stay true:
// - the request is not part of the conversation: no event, no state change, no run record; it
//   never holds a run or the page up (runs.ts starts it after the turn's `busy: false` and does
//   not wait for it);
// - after a first answer, a title is written only while the session's title is still the one its
//   first message gave (read and written in one transaction: a rename made meanwhile wins), only
//   when Settings → "Titles written by the model" is on, and only on a provider's model: the demo
//   model and local GGUF models (noise; the local engine taken) are asked only from the menu;
// - any failure (an HTTP error, a cut stream, no provider, a locked key, a blank or junk answer, a
//   session deleted meanwhile) writes nothing; after a first answer it is a console warning,
//   never with a key (messages are redacted with the provider's key) or a header;
// - the menu's title overwrites whatever the title is, and says what it was (its Undo).

import { cutAnswerOf } from '../../src/core/cut-answer.ts';
import { functionCallsOf, textOf, type Content } from '../../src/core/content.ts';
import {
  activeEvents,
  InvalidRequestError,
  ModelError,
  SessionNotFoundError,
  type BaseLlm,
  type Event,
  type IndexedDbSessionService,
} from '../../src/index.ts';
import { redact } from '../../src/models/model-errors.ts';
import type { IndexedDbAppStore } from '../../src/store/app-store.ts';
import { isSpecAgent, SPEC_PREFIX } from '../agents/agent-specs.ts';
import { MODEL_CHAT_ID } from '../agents/chat-settings.ts';
import type { ModelChat } from '../agents/model-chat.ts';
import { readSettings } from '../app-settings.ts';
import { FLOW_PREFIX } from '../flows/flows.ts';
import type { RuntimeBroadcast, WrittenTitle } from '../protocol.ts';
import type { AppProviders, OpenedProvider } from '../providers.ts';
import { localOnly } from '../remote/adk-servers.ts';
import { DEFAULT_AGENT_ID } from '../../src/demos/index.ts';
import { APP_NAME, DEFAULT_TITLE, USER_ID, newMeta } from './sessions.ts';
import { cleanTitle, demoTitleModel, firstMessageTitle, titleRequest } from './title-prompt.ts';

export interface TitleDeps {
  sessions: IndexedDbSessionService;
  store: IndexedDbAppStore;
  broadcast: (message: RuntimeBroadcast) => void;
  providers: AppProviders;
  modelChat: ModelChat;
}

/** A session's model for its title: a provider's (asked after a first answer) or not. */
interface TitleModel {
  llm: BaseLlm;
  /** A provider's model other than a local one: asked after a first answer. */
  unasked: boolean;
  /** What no message may show (the provider's key). */
  secrets: string[];
}

/** The first turn of a session as the title is made from it. */
interface FirstExchange {
  invocationId: string;
  message: Content;
  /** The agent's last words in that turn ('' for none). */
  answer: string;
  /** It ended with that answer: not stopped, not failed, not waiting for anyone. */
  answered: boolean;
}

/** The end of the active conversation read after a run: a first turn fits in it. */
const FIRST_TURN_EVENTS = 200;

/** A title request gone quiet this long is given up (an idle provider's watchdog may be longer). */
const TITLE_TIMEOUT_MS = 60_000;

export class ModelTitles {
  /** The title requests after first answers that have not ended yet. */
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly deps: TitleDeps) {}

  /**
   * After a run that ended (not failed) with its turns: titles the session if the first turn is
   * among them and ended with an answer. Returns at once; what it starts never throws.
   */
  afterRun(sessionId: string, turns: ReadonlySet<string>): void {
    const work = this.titleFirstAnswer(sessionId, turns).catch((error: unknown) => {
      // A session deleted meanwhile has nothing to title.
      if ((error as Error | undefined)?.name === 'SessionNotFoundError') return;
      // Expected (a provider down, a junk answer): the first message's title stays.
      console.warn(`Trellis: no title from the model for session ${sessionId}: ${said(error)}`);
    });
    this.pending.add(work);
    void work.finally(() => this.pending.delete(work));
  }

  /** Resolves once every title request started so far has ended (tests wait with it). */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all(this.pending);
  }

  /**
   * "Write a title": asks the session's model now (any model, the demo's and local ones too) and
   * overwrites the title; InvalidRequestError for a session with no message yet or on an ADK
   * server, SessionNotFoundError for an unknown one, ModelError when the model gave no title.
   */
  async write(sessionId: string): Promise<WrittenTitle> {
    localOnly(sessionId, 'Writing a title');
    const { sessions, store } = this.deps;
    const session = await sessions.getSession({ appName: APP_NAME, userId: USER_ID, sessionId });
    if (!session) throw new SessionNotFoundError(sessionId);
    const first = firstExchangeOf(activeEvents(session.events));
    if (!first) throw new InvalidRequestError('Send a message first: the title is made from it');
    const agentId = (await store.getSessionMeta(APP_NAME, USER_ID, sessionId))?.agentId;
    const model = await this.modelOf(agentId, session.state);
    if (!model) throw new InvalidRequestError('This session has no model to ask: add a provider');
    const title = await ask(model, first);
    const [before] = await store.changeSessionMetas(
      APP_NAME,
      USER_ID,
      [sessionId],
      (meta) => ({ ...meta, title }),
      // A session the library made directly has no record yet (AppRuntime.meta's rule).
      (id) => newMeta(id, DEFAULT_TITLE, DEFAULT_AGENT_ID),
      () => new SessionNotFoundError(sessionId),
    );
    this.deps.broadcast({ type: 'sessions-changed' });
    return { title, before: before!.title };
  }

  private async titleFirstAnswer(sessionId: string, turns: ReadonlySet<string>): Promise<void> {
    const { sessions, store } = this.deps;
    if (!(await readSettings(store)).modelTitles) return;
    const meta = await store.getSessionMeta(APP_NAME, USER_ID, sessionId);
    // The demos and the example flows answer on the demo model: titled only when asked.
    if (!meta || !onProviders(meta.agentId)) return;
    const key = { appName: APP_NAME, userId: USER_ID, sessionId };
    const summary = await sessions.getSessionSummary({
      ...key,
      numActiveEvents: FIRST_TURN_EVENTS,
      numTurns: 0,
    });
    // Deleted meanwhile, or longer than a first turn: nothing to do.
    if (!summary?.activeComplete) return;
    const first = firstExchangeOf(summary.activeTail.map(({ event }) => event));
    if (!first?.answered || !turns.has(first.invocationId)) return;
    const given = firstMessageTitle(first.message) || DEFAULT_TITLE;
    if (meta.title !== given) return;
    const model = await this.modelOf(meta.agentId, summary.session.state);
    if (!model?.unasked) return;
    const title = await ask(model, first);
    // Read again with the write: a rename made while the model was asked wins.
    let renamed = false;
    await store.changeSessionMetas(
      APP_NAME,
      USER_ID,
      [sessionId],
      (now) => {
        if (now.title !== given) return now;
        renamed = true;
        return { ...now, title };
      },
      () => undefined,
      // Deleted while the model was asked: afterRun says nothing of it.
      () => new SessionNotFoundError(sessionId),
    );
    if (renamed) this.deps.broadcast({ type: 'sessions-changed' });
  }

  /**
   * The model that answers in a session of `agentId`: a chat's own, a built agent's, a user's
   * flow's first model node's (else the first provider's default); the demo model for the demos
   * and the example flows. Undefined when there is none (a chat without a provider).
   */
  private async modelOf(
    agentId: string | undefined,
    state: Readonly<Record<string, unknown>>,
  ): Promise<TitleModel | undefined> {
    const { providers, store, modelChat } = this.deps;
    if (agentId === MODEL_CHAT_ID) {
      const chosen = await modelChat.chosen(state);
      return chosen && this.providerModel(chosen.record, chosen.settings.model);
    }
    if (agentId && isSpecAgent(agentId)) {
      const spec = await store.getAgentSpec(agentId.slice(SPEC_PREFIX.length));
      if (!spec) return undefined;
      return this.providerModel(await providers.record(spec.providerId), spec.model);
    }
    if (agentId?.startsWith(FLOW_PREFIX)) {
      const flow = (await store.getFlow(agentId.slice(FLOW_PREFIX.length)))?.flow;
      const name = flowModelName(flow?.nodes ?? []);
      const built = name ? (await providers.flowModels([name])).models[name] : undefined;
      const source = built && providers.flowModelSource(built);
      if (source) return this.providerModel(source.provider, source.model);
      const [fallback] = await providers.list();
      return fallback && this.providerModel(await providers.record(fallback.id), '');
    }
    return { llm: demoTitleModel(), unasked: false, secrets: [] };
  }

  private providerModel(provider: OpenedProvider, model: string): TitleModel {
    return {
      llm: this.deps.providers.model(provider, model),
      unasked: provider.kind !== 'local-gguf',
      secrets: provider.apiKey ? [provider.apiKey] : [],
    };
  }
}

/** Whether an agent answers on a provider's model (the chat, a built agent, a user's flow). */
function onProviders(agentId: string): boolean {
  return agentId === MODEL_CHAT_ID || isSpecAgent(agentId) || agentId.startsWith(FLOW_PREFIX);
}

/** The model a flow's title is asked of: its first agent or LLM node's, else the start's. */
function flowModelName(nodes: readonly { type: string; model?: string }[]): string | undefined {
  const modelNode = nodes.find(
    (node) => ['agent', 'llm', 'conditionAgent'].includes(node.type) && node.model,
  );
  return modelNode?.model ?? nodes.find((node) => node.type === 'start')?.model;
}

/** The session's first message (a user's text) and how its turn ended, from active events. */
function firstExchangeOf(active: readonly Event[]): FirstExchange | undefined {
  const message = active.find(
    (event) => event.author === 'user' && !event.partial && textOf(event.content).trim(),
  );
  if (!message?.content) return undefined;
  const turn = active.filter(
    (event) => event.invocationId === message.invocationId && !event.partial,
  );
  const spoken = turn.filter((event) => event.author !== 'user' && textOf(event.content).trim());
  const last = spoken.at(-1);
  const after = last ? turn.slice(turn.indexOf(last) + 1) : [];
  const answered =
    !!last &&
    turn.every((event) => !event.errorCode && !cutAnswerOf(event)) &&
    // A call after the answer (an approval to give, a question to the user): still waiting.
    after.every((event) => functionCallsOf(event.content).length === 0);
  return {
    invocationId: message.invocationId,
    message: message.content,
    answer: last ? textOf(last.content) : '',
    answered,
  };
}

/** Asks `model` for a title of `first`; ModelError (redacted) when it gave none. */
async function ask(model: TitleModel, first: FirstExchange): Promise<string> {
  const request = titleRequest(textOf(first.message), first.answer);
  const signal = AbortSignal.timeout(TITLE_TIMEOUT_MS);
  try {
    let final: { text: string; errorCode?: string; errorMessage?: string } | undefined;
    for await (const response of model.llm.generateContentAsync(request, true, { signal })) {
      if (response.partial) continue;
      final = {
        text: textOf(response.content),
        ...(response.errorCode ? { errorCode: response.errorCode } : {}),
        ...(response.errorMessage ? { errorMessage: response.errorMessage } : {}),
      };
    }
    // A cut answer (the length limit, a filter) is not a title, even if it has words.
    if (final?.errorCode)
      throw new ModelError(final.errorMessage ?? 'The answer was cut', final.errorCode);
    const title = cleanTitle(final?.text ?? '');
    if (!title) throw new ModelError('The model’s answer held no title', 'NO_TITLE');
    return title;
  } catch (error) {
    const message = redact(said(error), model.secrets);
    throw new ModelError(`The model wrote no title: ${message}`, 'NO_TITLE');
  }
}

function said(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
